/** Screening groups: the earlier interface (docs/wire-contract.md §4.5 and §4.6). */
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/http.js';
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

const SCREENING_GROUPS = '/api/v1/screening_groups';

/** `client.screeningGroups`. */
export class ScreeningGroups extends APIResource {
  /** Lists screening groups, 25 a page. */
  list(params: ScreeningGroupListParams = {}, options?: RequestOptions): PagePromise<ScreeningGroup> {
    return listPages(this.core, {
      path: SCREENING_GROUPS,
      params: { ...params },
      paramsSchema: screeningGroupListParamsSchema,
      schema: screeningGroupListResponseSchema,
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
    return this.core.request({
      method: 'POST',
      path: SCREENING_GROUPS,
      body,
      bodySchema: screeningGroupCreateParamsSchema,
      schema: screeningGroupSchema,
      options,
      recovery: groupCreateRecovery<ScreeningGroup>(undefined),
    });
  }
}
