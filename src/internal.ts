/**
 * Not an entry point: the library's helpers that the testing kit (src/testing) and the command line
 * (src/cli) share with it but users do not call. They import the SDK as a user would, from
 * `applicant-verification` and `applicant-verification/schemas`, plus this one file
 * (.dependency-cruiser.cjs allows exactly it). It is bundled into their builds like any other
 * module; package.json exports no path to it.
 */

export {
  clearCoordinationFolder,
  describeCoordinationFolder,
  type FolderReport,
} from './core/coordination/file-folder.js';
export { formatPath } from './core/errors.js';
export { isLogLevel } from './core/observability/log.js';
export { maskText } from './core/observability/redact.js';
export { mapSettled } from './core/results/batch.js';
export { UNRESOLVED_RECHECK_MS } from './creates/create-once.js';
export { MONTH_NAMES } from './helpers/dates.js';
export { stateNameForCode } from './helpers/states.js';
export { shownValue } from './households/shown.js';
export { isSettledGroup } from './resources/applicant-groups.js';
export { E164_PHONE_PATTERN } from './schemas/common.js';
export { rentCentsMeant } from './schemas/rent.js';
export { suggestValue } from './schemas/suggest.js';
