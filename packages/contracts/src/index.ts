export * from './i18n.js';
export * from './access-levels.js';
export * from './session.js';
export * from './merge-widget.js';
export * from './suggestions.js';
export * from './abuse-reports.js';
export * from './diff-position.js';
export * from './ci-variables.js';
