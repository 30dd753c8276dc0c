/**
 * `applicant-verification/households`: the households CSV an office exports (one row per
 * applicant, rows sharing a `household_key` form one applicant group) into create bodies with
 * deterministic correlation ids, every problem listed in one pass. The command line's
 * `groups create --csv` is built on it, so a script's creates and the command line's find each
 * other (docs/households.md). A Node subpath: it loads csv-parse, libphonenumber-js and
 * `node:crypto`, which the main and edge entries never do.
 *
 * @module
 */

export type { Household } from './body.js';
export { type ColumnLevel, type ColumnName, type ColumnSpec, HOUSEHOLD_COLUMNS } from './columns.js';
export { CORRELATION_PREFIX, correlationIdFor, type HouseholdIdentity } from './correlation.js';
export {
  type HouseholdColumns,
  type HouseholdFix,
  type InvalidHousehold,
  type ParsedHouseholds,
  type ParseHouseholdsOptions,
  parseHouseholds,
} from './parse.js';
export { HOUSEHOLD_PROBLEM_KINDS, type HouseholdProblem, type HouseholdProblemKind } from './problems.js';
export {
  type CheckedHouseholds,
  type CheckHouseholdsOptions,
  checkHouseholds,
  type HouseholdMatch,
  type HouseholdSummary,
  HouseholdsChangedError,
  type HouseholdsSource,
} from './stream.js';
