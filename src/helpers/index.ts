/** Helpers for the values the API sends and expects: dates, money, US states, income to rent. */
export * from './affordability.js';
export * from './dates.js';
export * from './extra-fields.js';
export * from './money.js';
export * from './states.js';
