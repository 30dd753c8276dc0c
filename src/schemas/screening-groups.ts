/**
 * Screening groups, the earlier interface family (docs/wire-contract.md §2.6, §2.7, §4.5, §4.6). Its deprecated
 * fields are still typed so existing callers keep compiling, with `@deprecated` pointing at the
 * income criteria that replace them.
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/screening-groups.ts`, where they are defined.
 */

import { screeningGroupSchemas } from './lazy/screening-groups.js';
import { withZod } from './with-zod.js';

export * from './lazy/screening-groups.js';

const schemas = withZod(screeningGroupSchemas);

/** One applicant's screening. */
export const screeningSchema = schemas.screeningSchema;
/** A screening group: only `id` is required (docs/wire-contract.md §2.6). */
export const screeningGroupSchema = schemas.screeningGroupSchema;
/** Body of `GET /api/v1/screening_groups`; `total_count` is optional (the vendor marks it so). */
export const screeningGroupListResponseSchema = schemas.screeningGroupListResponseSchema;
/** One applicant in the body of `POST /api/v1/screening_groups`. */
export const screeningApplicantCreateParamsSchema = schemas.screeningApplicantCreateParamsSchema;
/** The property in the body of `POST /api/v1/screening_groups`. */
export const screeningPropertyCreateParamsSchema = schemas.screeningPropertyCreateParamsSchema;
/** Body of `POST /api/v1/screening_groups`: exact; newer fields go in the per-call `extraBody` option. */
export const screeningGroupCreateParamsSchema = schemas.screeningGroupCreateParamsSchema;
/** Query of `GET /api/v1/screening_groups` (docs/wire-contract.md §4.5); parsing yields the query record to send. */
export const screeningGroupListParamsSchema = schemas.screeningGroupListParamsSchema;
