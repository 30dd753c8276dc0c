/** Helpers for the values the API sends and expects: dates, money, US states. */
export * from './dates.js';
export * from './extra-fields.js';
export * from './money.js';
export * from './states.js';
