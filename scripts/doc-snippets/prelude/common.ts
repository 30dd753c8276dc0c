/**
 * What the docs' `fragment` snippets take from the text around them (CONTRIBUTING.md,
 * "Documentation snippets"): a fragment is type-checked with an import of the names below that it
 * uses and does not declare itself (a page's own prelude, `<page>.ts` beside this file, comes
 * first). Declarations only, never run. Add a name when a page's prose introduces it, with the
 * type the page means, never to silence an error.
 */
import type { IncomingMessage } from 'node:http';
import type {
  AffordabilityReason,
  ApplicantGroup,
  ApplicantGroupCreateParams,
  Coordination,
  GroupChange,
  GroupStore,
  ReportDetail,
  TokenStore,
  VerificationClient,
  WebhookEvent,
} from 'applicant-verification';
import type { MockServer } from 'applicant-verification/testing';
import type { Express } from 'express';

// The SDK's names a page imported in an earlier block.
export {
  AccountRegistry,
  affordability,
  expressWebhook,
  handleWebhook,
  isCombinedScreeningReport,
  MemoryDeliveryStore,
  type TokenStore,
  VerificationClient,
  webhookHandler,
} from 'applicant-verification';
export { default as express } from 'express';

/** The page's client (`new VerificationClient(...)`). */
export declare const client: VerificationClient;
/** A mock server a test started (`await createMockServer()`). */
export declare const mock: MockServer;
/** An Express application (`express()`). */
export declare const app: Express;

/** Ids the page's reader holds. */
export declare const id: string;
export declare const groupId: string;
export declare const reportId: string;
export declare const applicantId: string;

/** Client options the page's reader has. */
export declare const baseURL: string;
export declare const clientId: string;
export declare const secretKey: string;
export declare const tokenStore: TokenStore;
export declare const coordination: Coordination;
export declare const signal: AbortSignal;

/** A create body, a list of them, a household's body without its correlation id. */
export declare const body: ApplicantGroupCreateParams;
export declare const bodies: readonly ApplicantGroupCreateParams[];
export declare const household: ApplicantGroupCreateParams;

/** What the reader read or stored earlier. */
export declare const group: ApplicantGroup;
export declare const report: ReportDetail;
export declare const storedJson: string;
export declare const store: GroupStore;
export declare const groupStore: GroupStore;

/** A webhook delivery's raw body and the request it came on (node:http). */
export declare const rawBody: Buffer;
export declare const request: IncomingMessage;

/** The reader's own code. */
export declare function handle(event: WebhookEvent): Promise<void>;
export declare function fetchReport(reportId: string): Promise<void>;
export declare function decide(groupId: string): Promise<void>;
export declare function apply(change: GroupChange): Promise<void>;
export declare const application: { id: string };
export declare function approve(application: { id: string }): void;
export declare function sendAdverseAction(
  application: { id: string },
  reasons: readonly AffordabilityReason[],
): void;
