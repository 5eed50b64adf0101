import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

/** The app itself, loaded by main.tsx once its data requests are on their way. */
const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
