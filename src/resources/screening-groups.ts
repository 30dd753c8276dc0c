/** Screening groups: the earlier interface (docs/wire-contract.md §4.5 to §4.9). */
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
import {
  type ScreeningGroupReportUrl,
  type ScreeningReportData,
  screeningGroupReportUrlSchema,
  screeningReportDataSchema,
} from '../schemas/screening-reports.js';
import { APIResource, groupCreateRecovery } from './resource.js';

const SCREENING_GROUPS = '/api/v1/screening_groups';

/**
 * `client.screeningGroups`: the earlier interface family, which the service files under a
 * deprecated version.
 * @deprecated Use `client.applicantGroups` (create, list, waitForCompletion) and
 * `client.reports` (listReports, retrieve, downloadPdf) instead: the current family, with
 * correlation-id lookups and typed reports. Kept for accounts that still use screening groups.
 */
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
   * by correlation id (a `correlation_id` is only saved with the group), so after an ambiguous
   * failure this throws GroupMayHaveBeenCreatedError rather than risk a second set of invitations.
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

  /** One screening group by id (404 `NotFoundError` for an unknown id). */
  retrieve(id: string, options?: RequestOptions): APIPromise<ScreeningGroup> {
    return this.core.request({
      method: 'GET',
      path: `${SCREENING_GROUPS}/{id}`,
      pathParams: { id },
      schema: screeningGroupSchema,
      options,
    });
  }

  /**
   * A link to the group's report PDF, valid 2 hours: ask for it when you need it. 404
   * `NotFoundError` while no report exists yet; 410 `ReportExpiredError` once it has expired.
   */
  reportUrl(id: string, options?: RequestOptions): APIPromise<ScreeningGroupReportUrl> {
    return this.core.request({
      method: 'GET',
      path: `${SCREENING_GROUPS}/{id}/report`,
      pathParams: { id },
      schema: screeningGroupReportUrlSchema,
      options,
    });
  }

  /**
   * The group's report as data: individual (one applicant) or combined (several, with
   * `screenings`; see `isCombinedScreeningReport`). 404 `NotFoundError` while no report exists
   * yet; 410 `ReportExpiredError` once it has expired.
   */
  reportData(id: string, options?: RequestOptions): APIPromise<ScreeningReportData> {
    return this.core.request({
      method: 'GET',
      path: `${SCREENING_GROUPS}/{id}/report/data`,
      pathParams: { id },
      schema: screeningReportDataSchema,
      options,
    });
  }
}
