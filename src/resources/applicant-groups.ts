/** Applicant groups: the current interface (spec 4.1 to 4.3). */
import type { APIPromise } from '../core/api-promise.js';
import type { RequestOptions } from '../core/http.js';
import { listPages, type PagePromise } from '../core/pagination.js';
import {
  type ApplicantGroup,
  type ApplicantGroupCreateParams,
  type ApplicantGroupListParams,
  applicantGroupCreateParamsSchema,
  applicantGroupListParamsSchema,
  applicantGroupListResponseSchema,
  applicantGroupSchema,
} from '../schemas/applicant-groups.js';
import { type ApplicantGroupReports, applicantGroupReportsSchema } from '../schemas/reports.js';
import { APIResource } from './resource.js';

const GROUPS = '/api/v1/applicant_groups';

/** `client.applicantGroups`. */
export class ApplicantGroups extends APIResource {
  /**
   * Lists groups matching the filters. `await` gives the first page; `for await` walks every
   * group of every page.
   */
  list(params: ApplicantGroupListParams = {}, options?: RequestOptions): PagePromise<ApplicantGroup> {
    return listPages(this.core, {
      path: GROUPS,
      params,
      paramsSchema: applicantGroupListParamsSchema,
      schema: applicantGroupListResponseSchema,
      items: (body) => body.applicant_groups,
      totalCount: (body) => body.total_count,
      options,
    });
  }

  /**
   * Creates a group and, unless `is_invitation_disabled`, emails (and texts) every applicant.
   * Pass a `correlation_id`: after an ambiguous failure the SDK then looks the group up instead
   * of sending the invitations twice.
   */
  create(body: ApplicantGroupCreateParams, options?: RequestOptions): APIPromise<ApplicantGroup> {
    const correlationId = body?.correlation_id;
    return this.core.request({
      method: 'POST',
      path: GROUPS,
      body,
      bodySchema: applicantGroupCreateParamsSchema,
      schema: applicantGroupSchema,
      options,
      recovery: {
        correlationId,
        lookup: correlationId ? () => this.findByCorrelationId(correlationId, options) : undefined,
      },
    });
  }

  /** The group created with this `correlation_id`, or `undefined`: how to reconcile after a failure. */
  async findByCorrelationId(
    correlationId: string,
    options?: RequestOptions,
  ): Promise<ApplicantGroup | undefined> {
    const page = await this.list({ correlation_id: correlationId }, options);
    return page.items.find((group) => group.correlation_id === correlationId);
  }

  /** The household and individual reports of a group (404 NotFoundError for an unknown group). */
  listReports(groupId: string, options?: RequestOptions): APIPromise<ApplicantGroupReports> {
    return this.core.request({
      method: 'GET',
      path: `${GROUPS}/{groupId}/reports`,
      pathParams: { groupId },
      schema: applicantGroupReportsSchema,
      options,
    });
  }
}
