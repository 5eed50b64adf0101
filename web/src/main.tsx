import '@primer/primitives/dist/css/primitives.css';
import '@primer/primitives/dist/css/functional/themes/light.css';
import './app/global.css';
import { prefetchMergeRequestPage } from './features/merge-requests';

// A merge request opened by its URL: its data and code start loading now, all at once.
// This module is small (the query cache and the API client): the requests go out before the
// browser spends a few hundred milliseconds on React, the router and Primer, which follow.
prefetchMergeRequestPage(window.location.pathname, window.location.search);

void import('./app/start');
