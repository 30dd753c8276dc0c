import type { IncomingHttpHeaders } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import { Webhooks } from '../../src/resources/webhooks.js';
import {
  type BankCannotConnectEvent,
  type BeginScreeningEvent,
  isKnownWebhookEvent,
  type KnownWebhookEvent,
  type ReportExpiredEvent,
  type ReportReadyEvent,
  type UnknownWebhookEvent,
  type VerificationCompletedEvent,
  type VerificationStartedEvent,
  WEBHOOK_EVENT_CODES,
  type WebhookEvent,
  type WebhookEventCode,
  type webhookEventSchema,
} from '../../src/schemas/webhooks.js';
import { unwrapWebhook, type WebhookHeaders } from '../../src/webhooks/verify.js';

declare const event: WebhookEvent;

describe('WebhookEvent', () => {
  it('is the open union of known and unknown events', () => {
    expectTypeOf(unwrapWebhook('', {}, 's')).toEqualTypeOf<WebhookEvent>();
    expectTypeOf(new Webhooks().unwrap('', {})).toEqualTypeOf<WebhookEvent>();
    expectTypeOf<WebhookEvent>().toEqualTypeOf<KnownWebhookEvent | UnknownWebhookEvent>();
    expectTypeOf(event.code).toEqualTypeOf<string>();
    expectTypeOf<import('zod').infer<typeof webhookEventSchema>>().toEqualTypeOf<WebhookEvent>();
  });

  it('narrows on code once the event is known', () => {
    if (isKnownWebhookEvent(event)) {
      switch (event.code) {
        case 'VERIFICATION_STARTED':
          expectTypeOf(event).toEqualTypeOf<VerificationStartedEvent>();
          expectTypeOf(event.verification_id).toEqualTypeOf<string>();
          break;
        case 'VERIFICATION_COMPLETED':
          expectTypeOf(event).toEqualTypeOf<VerificationCompletedEvent>();
          expectTypeOf(event.reason_completed).toExtend<string>();
          expectTypeOf<'finished'>().toExtend<typeof event.reason_completed>();
          break;
        case 'REPORT_READY':
          expectTypeOf(event).toEqualTypeOf<ReportReadyEvent>();
          expectTypeOf(event.report_id).toEqualTypeOf<string>();
          expectTypeOf(event.applicant_id).toEqualTypeOf<string>();
          expectTypeOf<'income' | 'asset' | 'identity'>().toExtend<typeof event.report_type>();
          expectTypeOf(event.report_type).toExtend<string>();
          break;
        case 'BEGIN_SCREENING':
          expectTypeOf(event).toEqualTypeOf<BeginScreeningEvent>();
          expectTypeOf(event.screening_id).toEqualTypeOf<string>();
          break;
        case 'BANK_CANNOT_CONNECT':
          expectTypeOf(event).toEqualTypeOf<BankCannotConnectEvent>();
          expectTypeOf(event.value).toEqualTypeOf<string>();
          break;
        case 'REPORT_EXPIRED':
          expectTypeOf(event).toEqualTypeOf<ReportExpiredEvent>();
          expectTypeOf(event.screening_group_id).toEqualTypeOf<string>();
          // @ts-expect-error only the group is named, not a screening
          event.screening_id satisfies string;
          break;
        default:
          expectTypeOf(event.code).toExtend<WebhookEventCode>();
      }
    } else {
      expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
      expectTypeOf(event.code).toEqualTypeOf<string>();
      expectTypeOf(event.anything).toEqualTypeOf<unknown>();
    }
  });

  it('narrows a known event exhaustively', () => {
    const describe = (known: KnownWebhookEvent): string => {
      switch (known.code) {
        case 'VERIFICATION_STARTED':
        case 'VERIFICATION_COMPLETED':
          return known.verification_id;
        case 'REPORT_READY':
          return known.report_id;
        case 'SCREENING_GROUP_COMPLETED':
        case 'REPORT_SOON_TO_EXPIRE':
        case 'REPORT_EXPIRED':
          return known.screening_group_id;
        case 'BANK_NOT_SUPPORTED':
        case 'BANK_CANNOT_CONNECT':
          return known.value;
        case 'BEGIN_SCREENING':
        case 'SCREENING_COMPLETED':
        case 'NO_BANK':
        case 'SHARE_BANK':
        case 'NO_INCOME':
        case 'RE_OPEN_SCREENING':
          return known.screening_id;
        default:
          expectTypeOf(known).toBeNever();
          return known;
      }
    };
    expectTypeOf(describe).returns.toEqualTypeOf<string>();
  });

  it('without the guard, a code check alone keeps the unknown event (TypeScript cannot exclude literals from string)', () => {
    if (event.code === 'REPORT_READY') {
      expectTypeOf(event).toEqualTypeOf<ReportReadyEvent | UnknownWebhookEvent>();
    }
  });

  it('lists the known codes as literals', () => {
    expectTypeOf(WEBHOOK_EVENT_CODES[0]).toEqualTypeOf<'VERIFICATION_STARTED'>();
    expectTypeOf<WebhookEventCode>().toEqualTypeOf<KnownWebhookEvent['code']>();
  });
});

describe('WebhookHeaders', () => {
  it("accepts Node's IncomingHttpHeaders, a plain record and Fetch Headers", () => {
    expectTypeOf<IncomingHttpHeaders>().toExtend<WebhookHeaders>();
    expectTypeOf<Record<string, string>>().toExtend<WebhookHeaders>();
    expectTypeOf<Headers>().toExtend<WebhookHeaders>();
  });
});
