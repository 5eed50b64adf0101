import '@primer/primitives/dist/css/primitives.css';
import '@primer/primitives/dist/css/functional/themes/light.css';
import './app/global.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { prefetchMergeRequestPage } from './features/merge-requests/prefetch';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A merge request opened by its URL: its data and code start loading now, all at once (issue 5).
prefetchMergeRequestPage(window.location.pathname);

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
