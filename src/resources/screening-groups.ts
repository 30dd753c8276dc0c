/** Screening groups: the earlier interface (docs/wire-contract.md §4.5 and §4.6). */
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/http.js';
import { defineOperation, operationCall } from '../core/operation.js';
import { listPages, type PagePromise } from '../core/pagination.js';
import {
  type ScreeningGroup,
  type ScreeningGroupCreateParams,
  type ScreeningGroupListParams,
  screeningGroupCreateParamsSchema,
  screeningGroupListParamsSchema,
  screeningGroupListResponseSchema,
  screeningGroupSchema,
} from '../schemas/screening-groups.js';
import { APIResource, groupCreateRecovery } from './resource.js';

/** The operations of `client.screeningGroups`, one descriptor each (CONTRIBUTING.md, "A new endpoint"). */
export const screeningGroupOperations = {
  list: defineOperation({
    name: 'screeningGroups.list',
    method: 'GET',
    path: '/api/v1/screening_groups',
    query: screeningGroupListParamsSchema,
    response: screeningGroupListResponseSchema,
    doc: 'One page (25) of screening groups.',
  }),
  create: defineOperation({
    name: 'screeningGroups.create',
    method: 'POST',
    path: '/api/v1/screening_groups',
    body: screeningGroupCreateParamsSchema,
    response: screeningGroupSchema,
    create: 'none',
    doc: 'Creates a screening group and invites its applicants.',
  }),
};

/** `client.screeningGroups`. */
export class ScreeningGroups extends APIResource {
  /** Lists screening groups, 25 a page. */
  list(params: ScreeningGroupListParams = {}, options?: RequestOptions): PagePromise<ScreeningGroup> {
    return listPages(this.core, {
      operation: screeningGroupOperations.list,
      params: { ...params },
      items: (body) => body.screening_groups,
      // Optional on the wire: without it, the walk ends on an empty page.
      totalCount: (body) => body.total_count,
      options,
    });
  }

  /**
   * Creates a screening group and invites every applicant. Screening groups cannot be looked up
   * by correlation id, so after an ambiguous failure this throws GroupMayHaveBeenCreatedError
   * rather than risk a second set of invitations.
   */
  create(body: ScreeningGroupCreateParams, options?: RequestOptions): APIPromise<ScreeningGroup> {
    return this.core.request(
      operationCall(screeningGroupOperations.create, {
        body,
        options,
        recovery: groupCreateRecovery<ScreeningGroup>(undefined),
      }),
    );
  }
}
