/**
 * Applicant groups (docs/wire-contract.md §2.1-§2.3, §4.1, §4.2): the response objects, the create body and the list
 * query. Responses are loose objects so fields the service adds later reach the caller.
 *
 * Importing this module builds the schemas (for `applicant-verification/schemas` and the testing
 * kit); the client builds them on first use through `./lazy/applicant-groups.ts`, where they are defined.
 */

import { applicantGroupCreateSchemas, applicantGroupSchemas } from './lazy/applicant-groups.js';
import { withZod } from './with-zod.js';

export * from './lazy/applicant-groups.js';

const schemas = withZod(applicantGroupSchemas);
const createSchemas = withZod(applicantGroupCreateSchemas);

/** Property of an applicant group, as returned by the service. */
export const propertySchema = schemas.propertySchema;
/** Status of one verification: values seen in_progress; not_started and completed as for groups. */
export const verificationStatusSchema = schemas.verificationStatusSchema;
/** One verification requested of an applicant (items of `applicant.verifications`). */
export const verificationSchema = schemas.verificationSchema;
/** An applicant of an applicant group. */
export const applicantSchema = schemas.applicantSchema;
/** An applicant group, as returned by create and list. */
export const applicantGroupSchema = schemas.applicantGroupSchema;
/** Body of `GET /api/v1/applicant_groups`; `total_count` is optional (the vendor marks it so). */
export const applicantGroupListResponseSchema = schemas.applicantGroupListResponseSchema;
/**
 * Query of `GET /api/v1/applicant_groups` (docs/wire-contract.md §4.1). Parsing yields the query record to send:
 * only the keys given, `statuses` comma-joined, timestamps as integer Unix seconds.
 */
export const applicantGroupListParamsSchema = schemas.applicantGroupListParamsSchema;
/** One verification to request of an applicant on create. */
export const verificationRequestSchema = createSchemas.verificationRequestSchema;
/** One applicant in the body of `POST /api/v1/applicant_groups`. */
export const applicantCreateParamsSchema = createSchemas.applicantCreateParamsSchema;
/** The property in the body of `POST /api/v1/applicant_groups`. */
export const propertyCreateParamsSchema = createSchemas.propertyCreateParamsSchema;
/**
 * Body of `POST /api/v1/applicant_groups` as callers give it, under the default `apiRentUnit`
 * (`dollars`): exact; newer fields go in the per-call `extraBody` option.
 */
export const applicantGroupCreateParamsSchema = createSchemas.applicantGroupCreateParamsSchema;
