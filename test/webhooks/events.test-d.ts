import type { IncomingHttpHeaders } from 'node:http';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { extraFields } from '../../src/helpers/index.js';
import { Webhooks } from '../../src/resources/webhooks.js';
import type * as W from '../../src/schemas/webhooks.js';
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
          // A household report names no applicant.
          expectTypeOf(event.applicant_id).toEqualTypeOf<string | null | undefined>();
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
      // No index signature: other fields are read with extraFields(event).
      // @ts-expect-error an unknown event has only a code in its type
      expectTypeOf(event.anything).toBeUnknown();
      expectTypeOf(extraFields(event).anything).toEqualTypeOf<unknown>();
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

describe('each event interface is exactly z.input and z.output of its schema', () => {
  it('every known event', () => {
    expectTypeOf<
      z.output<typeof W.verificationStartedEventSchema>
    >().toEqualTypeOf<VerificationStartedEvent>();
    expectTypeOf<
      z.input<typeof W.verificationStartedEventSchema>
    >().toEqualTypeOf<VerificationStartedEvent>();
    expectTypeOf<
      z.output<typeof W.verificationCompletedEventSchema>
    >().toEqualTypeOf<VerificationCompletedEvent>();
    expectTypeOf<
      z.input<typeof W.verificationCompletedEventSchema>
    >().toEqualTypeOf<VerificationCompletedEvent>();
    expectTypeOf<z.output<typeof W.reportReadyEventSchema>>().toEqualTypeOf<ReportReadyEvent>();
    expectTypeOf<z.input<typeof W.reportReadyEventSchema>>().toEqualTypeOf<ReportReadyEvent>();
    expectTypeOf<z.output<typeof W.beginScreeningEventSchema>>().toEqualTypeOf<BeginScreeningEvent>();
    expectTypeOf<z.input<typeof W.beginScreeningEventSchema>>().toEqualTypeOf<BeginScreeningEvent>();
    expectTypeOf<
      z.output<typeof W.screeningCompletedEventSchema>
    >().toEqualTypeOf<W.ScreeningCompletedEvent>();
    expectTypeOf<
      z.input<typeof W.screeningCompletedEventSchema>
    >().toEqualTypeOf<W.ScreeningCompletedEvent>();
    expectTypeOf<
      z.output<typeof W.screeningGroupCompletedEventSchema>
    >().toEqualTypeOf<W.ScreeningGroupCompletedEvent>();
    expectTypeOf<
      z.input<typeof W.screeningGroupCompletedEventSchema>
    >().toEqualTypeOf<W.ScreeningGroupCompletedEvent>();
    expectTypeOf<z.output<typeof W.bankNotSupportedEventSchema>>().toEqualTypeOf<W.BankNotSupportedEvent>();
    expectTypeOf<z.input<typeof W.bankNotSupportedEventSchema>>().toEqualTypeOf<W.BankNotSupportedEvent>();
    expectTypeOf<z.output<typeof W.bankCannotConnectEventSchema>>().toEqualTypeOf<BankCannotConnectEvent>();
    expectTypeOf<z.input<typeof W.bankCannotConnectEventSchema>>().toEqualTypeOf<BankCannotConnectEvent>();
    expectTypeOf<z.output<typeof W.noBankEventSchema>>().toEqualTypeOf<W.NoBankEvent>();
    expectTypeOf<z.input<typeof W.noBankEventSchema>>().toEqualTypeOf<W.NoBankEvent>();
    expectTypeOf<z.output<typeof W.shareBankEventSchema>>().toEqualTypeOf<W.ShareBankEvent>();
    expectTypeOf<z.input<typeof W.shareBankEventSchema>>().toEqualTypeOf<W.ShareBankEvent>();
    expectTypeOf<z.output<typeof W.noIncomeEventSchema>>().toEqualTypeOf<W.NoIncomeEvent>();
    expectTypeOf<z.input<typeof W.noIncomeEventSchema>>().toEqualTypeOf<W.NoIncomeEvent>();
    expectTypeOf<z.output<typeof W.reOpenScreeningEventSchema>>().toEqualTypeOf<W.ReOpenScreeningEvent>();
    expectTypeOf<z.input<typeof W.reOpenScreeningEventSchema>>().toEqualTypeOf<W.ReOpenScreeningEvent>();
    expectTypeOf<
      z.output<typeof W.reportSoonToExpireEventSchema>
    >().toEqualTypeOf<W.ReportSoonToExpireEvent>();
    expectTypeOf<
      z.input<typeof W.reportSoonToExpireEventSchema>
    >().toEqualTypeOf<W.ReportSoonToExpireEvent>();
    expectTypeOf<z.output<typeof W.reportExpiredEventSchema>>().toEqualTypeOf<ReportExpiredEvent>();
    expectTypeOf<z.input<typeof W.reportExpiredEventSchema>>().toEqualTypeOf<ReportExpiredEvent>();
    expectTypeOf<z.output<typeof W.knownWebhookEventSchema>>().toEqualTypeOf<KnownWebhookEvent>();
    expectTypeOf<z.input<typeof W.knownWebhookEventSchema>>().toEqualTypeOf<KnownWebhookEvent>();
  });
});

describe('WebhookHeaders', () => {
  it("accepts Node's IncomingHttpHeaders, a plain record and Fetch Headers", () => {
    expectTypeOf<IncomingHttpHeaders>().toExtend<WebhookHeaders>();
    expectTypeOf<Record<string, string>>().toExtend<WebhookHeaders>();
    expectTypeOf<Headers>().toExtend<WebhookHeaders>();
  });
});
