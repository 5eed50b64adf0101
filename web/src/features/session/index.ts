// features/session: what other areas and the app may use. Everything else in this folder is its own.
// Pages load lazily, each its own chunk: the router and routes import their loaders from here.
export { userCanUpdateMergeRequest, userCanUseFeature, userProjectLevel } from './abilities';
export { sessionQuery, signOutMutation } from './api';
export { RequireAuth } from './RequireAuth';
export { SessionGate } from './SessionGate';
export { useCurrentUser, useOptionalUser } from './useCurrentUser';

export const loadSignInPage = () => import('./SignInPage');
