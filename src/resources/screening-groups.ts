/** Screening groups: the earlier interface (docs/wire-contract.md §4.5 to §4.9). */
import { APIPromise } from '../core/call/api-promise.js';
import type { HttpCore, RequestOptions } from '../core/call/http.js';
import { defineOperation, operationCall } from '../core/call/operation.js';
import { parseRequest } from '../core/call/validate.js';
import { type ListOptions, listPages, type PagePromise } from '../core/results/pagination.js';
import { type BeforeAttempt, gatedCreate } from '../creates/create-gate.js';
import type { Creates } from '../creates/creates.js';
import { groupCreateRecovery } from '../creates/unresolved.js';
import {
  type ScreeningGroup,
  type ScreeningGroupCreateParams,
  type ScreeningGroupListParams,
  screeningGroupSchemas,
} from '../schemas/lazy/screening-groups.js';
import {
  type ScreeningGroupReportUrl,
  type ScreeningReportData,
  screeningReportSchemas,
} from '../schemas/lazy/screening-reports.js';
import { pdfBytesSchema } from '../schemas/pdf.js';
import { PDF_DOWNLOAD_OPERATION } from './reports.js';
import { APIResource } from './resource.js';

/** The operations of `client.screeningGroups`, one descriptor each (CONTRIBUTING.md, "A new endpoint"). */
export const screeningGroupOperations = {
  list: defineOperation({
    name: 'screeningGroups.list',
    method: 'GET',
    path: '/api/v1/screening_groups',
    get query() {
      return screeningGroupSchemas().screeningGroupListParamsSchema;
    },
    get response() {
      return screeningGroupSchemas().screeningGroupListResponseSchema;
    },
    doc: 'One page (25) of screening groups.',
  }),
  create: defineOperation({
    name: 'screeningGroups.create',
    method: 'POST',
    path: '/api/v1/screening_groups',
    get body() {
      return screeningGroupSchemas().screeningGroupCreateParamsSchema;
    },
    get response() {
      return screeningGroupSchemas().screeningGroupSchema;
    },
    create: 'none',
    doc: 'Creates a screening group and invites its applicants.',
  }),
  retrieve: defineOperation({
    name: 'screeningGroups.retrieve',
    method: 'GET',
    path: '/api/v1/screening_groups/{id}',
    get response() {
      return screeningGroupSchemas().screeningGroupSchema;
    },
    doc: 'One screening group by id.',
  }),
  reportUrl: defineOperation({
    name: 'screeningGroups.reportUrl',
    method: 'GET',
    path: '/api/v1/screening_groups/{id}/report',
    get response() {
      return screeningReportSchemas().screeningGroupReportUrlSchema;
    },
    doc: "A link to the group's report PDF, valid 2 hours (404 not ready, 410 expired).",
  }),
  reportData: defineOperation({
    name: 'screeningGroups.reportData',
    method: 'GET',
    path: '/api/v1/screening_groups/{id}/report/data',
    get response() {
      return screeningReportSchemas().screeningReportDataSchema;
    },
    doc: "The group's report data, individual or combined (404 not ready, 410 expired).",
  }),
};

/**
 * `client.screeningGroups`: the earlier interface family, which the service files under a
 * deprecated version.
 * @deprecated Use `client.applicantGroups` (create, list, waitForCompletion) and
 * `client.reports` (listReports, retrieve, downloadPdf) instead: the current family, with
 * correlation-id lookups and typed reports. Kept for accounts that still use screening groups.
 */
export class ScreeningGroups extends APIResource {
  readonly #creates: Creates;

  /** @internal Resources are built by the client; creates go through `creates`. */
  constructor(core: HttpCore, creates: Creates) {
    super(core);
    this.#creates = creates;
  }

  /** Lists screening groups, 25 a page. */
  list(params: ScreeningGroupListParams = {}, options?: ListOptions): PagePromise<ScreeningGroup> {
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
   * by correlation id (a `correlation_id` is only saved with the group), so after an ambiguous
   * failure this throws GroupMayHaveBeenCreatedError rather than risk a second set of invitations.
   * With a `correlation_id` the create passes the client's create gate: a concurrent screening
   * create of the same id (here or in another process on the same coordination) waits for it.
   */
  create(body: ScreeningGroupCreateParams, options?: RequestOptions): APIPromise<ScreeningGroup> {
    const correlationId = typeof body?.correlation_id === 'string' ? body.correlation_id : undefined;
    const gate = {
      correlationId,
      leaseKey: `screening_groups:${correlationId}`,
      caller: 'screeningGroups.create',
      path: screeningGroupOperations.create.path,
      options,
      validate: () =>
        parseRequest(screeningGroupSchemas().screeningGroupCreateParamsSchema, body, 'Invalid request body'),
    };
    const send = (wireBody: unknown, beforeAttempt: BeforeAttempt | undefined) =>
      this.#creates.send(
        operationCall(screeningGroupOperations.create, {
          body: wireBody,
          bodyChecked: true,
          options,
          beforeAttempt,
        }),
        groupCreateRecovery<ScreeningGroup>(undefined),
      );
    return new APIPromise(gatedCreate(this.#creates, gate, send, (created) => created.data.id));
  }

  /** One screening group by id (404 `NotFoundError` for an unknown id). */
  retrieve(id: string, options?: RequestOptions): APIPromise<ScreeningGroup> {
    return this.core.request(
      operationCall(screeningGroupOperations.retrieve, { pathParams: { id }, options }),
    );
  }

  /**
   * A link to the group's report PDF, valid 2 hours: ask for it when you need it. 404
   * `NotFoundError` while no report exists yet; 410 `ReportExpiredError` once it has expired.
   */
  reportUrl(id: string, options?: RequestOptions): APIPromise<ScreeningGroupReportUrl> {
    return this.core.request(
      operationCall(screeningGroupOperations.reportUrl, { pathParams: { id }, options }),
    );
  }

  /**
   * The group's report as data: individual (one applicant) or combined (several, with
   * `screenings`; see `isCombinedScreeningReport`). 404 `NotFoundError` while no report exists
   * yet; 410 `ReportExpiredError` once it has expired.
   */
  reportData(id: string, options?: RequestOptions): APIPromise<ScreeningReportData> {
    return this.core.request(
      operationCall(screeningGroupOperations.reportData, { pathParams: { id }, options }),
    );
  }

  /**
   * The group's report PDF: asks for a fresh link (`reportUrl`) and downloads it. The link is
   * pre-signed: no Authorization header and none of the caller's headers go to the file host; a
   * link that is not `https:` is refused without a request. 404 `NotFoundError` while no report
   * exists; 410 `ReportExpiredError` once it has expired.
   */
  downloadReportPdf(id: string, options?: RequestOptions): APIPromise<Uint8Array> {
    return new APIPromise(
      this.reportUrl(id, options).then(({ url }) =>
        this.core.execute({
          method: 'GET',
          path: this.core.fileURL(url),
          schema: pdfBytesSchema(),
          responseType: 'bytes',
          auth: false,
          options,
          operation: PDF_DOWNLOAD_OPERATION,
        }),
      ),
    );
  }
}
