/** Reports (docs/wire-contract.md §4.4) and their PDFs. */
import { APIPromise } from '../core/call/api-promise.js';
import type { RequestOptions } from '../core/call/http.js';
import { defineOperation, operationCall } from '../core/call/operation.js';
import { downloadWithFreshLink, LinkFreshness } from '../core/results/link-freshness.js';
import { type ReportDetail, reportSchemas } from '../schemas/lazy/reports.js';
import { pdfBytesSchema } from '../schemas/pdf.js';
import { APIResource } from './resource.js';

/** Pre-signed links live 2 hours (docs/wire-contract.md §8); a little margin avoids starting a doomed download. */
const PDF_LINK_LIFETIME_MS = 2 * 60 * 60_000 - 60_000;

/** The operations of `client.reports`, one descriptor each (CONTRIBUTING.md, "A new endpoint"). */
export const reportOperations = {
  retrieve: defineOperation({
    name: 'reports.retrieve',
    method: 'GET',
    path: '/api/v1/reports/{reportId}',
    get response() {
      return reportSchemas().reportDetailSchema;
    },
    doc: 'One report with its data and a PDF link valid 2 hours.',
  }),
};

/** The trace name of a PDF download: a GET of a pre-signed link, not an API endpoint. */
export const PDF_DOWNLOAD_OPERATION = 'reports.downloadPdf' as const;

/** `client.reports`. */
export class Reports extends APIResource {
  readonly #links = new LinkFreshness(PDF_LINK_LIFETIME_MS, () => this.core.clock.now());

  /** One report with its data (typed for income reports) and a PDF link valid 2 hours. */
  retrieve(reportId: string, options?: RequestOptions): APIPromise<ReportDetail> {
    const result = this.core.execute(
      operationCall(reportOperations.retrieve, { pathParams: { reportId }, options }),
    );
    return new APIPromise(
      result.then((value) => {
        this.#links.received(value.data);
        return value;
      }),
    );
  }

  /**
   * The report's PDF bytes. Given an id, retrieves the report for a fresh link; given a retrieved
   * report, uses its link unless it is older than 2 hours. A rejected (stale) link is refreshed
   * once by retrieving the report again. The link is pre-signed: no Authorization header, and none
   * of the caller's headers, go to the file host; redirects are not followed; a link that is not
   * `https:` is refused (ResponseValidationError) without a request.
   */
  downloadPdf(report: string | ReportDetail, options?: RequestOptions): APIPromise<Uint8Array> {
    return new APIPromise(this.#downloadPdf(report, options));
  }

  #downloadPdf(report: string | ReportDetail, options?: RequestOptions) {
    const reportId = typeof report === 'string' ? report : report.report_id;
    return downloadWithFreshLink({
      initial: typeof report === 'string' || this.#links.isStale(report) ? undefined : report,
      refresh: () => this.retrieve(reportId, options),
      download: (detail) =>
        this.core.execute({
          method: 'GET',
          // https: only (http: from a loopback API), checked before any request; no caller headers.
          path: this.core.fileURL(detail.pdf_url),
          schema: pdfBytesSchema(),
          responseType: 'bytes',
          auth: false,
          options,
          operation: PDF_DOWNLOAD_OPERATION,
        }),
      logger: this.core.logger,
      what: `report ${reportId}`,
    });
  }
}
