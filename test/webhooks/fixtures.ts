/** Sample deliveries, one per known code, shaped as in the vendor's webhook documentation. */
import type { WebhookEventCode } from '../../src/schemas/webhooks.js';

/** The secret key the samples are signed with. */
export const SECRET = 'sk_test_5f2b8c1e9d7a4b6c8e0f1a2b3c4d5e6f';

const GROUP = '0b7e3c52-6a1f-4d8e-9c3b-2f5a7e1d4c90';
const SCREENING = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

/** One sample payload for every known code. */
export const SAMPLE_EVENTS: Record<WebhookEventCode, Record<string, unknown>> = {
  VERIFICATION_STARTED: {
    code: 'VERIFICATION_STARTED',
    verification_id: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b',
  },
  VERIFICATION_COMPLETED: {
    code: 'VERIFICATION_COMPLETED',
    verification_id: 'a3f1c2d4-5b6e-4f70-8a9b-0c1d2e3f4a5b',
    reason_completed: 'finished',
  },
  REPORT_READY: {
    code: 'REPORT_READY',
    applicant_group_id: '5d9e8f7a-6b5c-4d3e-2f1a-0b9c8d7e6f5a',
    applicant_id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
    report_id: '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a',
    report_type: 'income',
  },
  BEGIN_SCREENING: { code: 'BEGIN_SCREENING', screening_group_id: GROUP, screening_id: SCREENING },
  SCREENING_COMPLETED: { code: 'SCREENING_COMPLETED', screening_group_id: GROUP, screening_id: SCREENING },
  SCREENING_GROUP_COMPLETED: { code: 'SCREENING_GROUP_COMPLETED', screening_group_id: GROUP },
  BANK_NOT_SUPPORTED: {
    code: 'BANK_NOT_SUPPORTED',
    value: 'First Prairie Savings',
    screening_group_id: GROUP,
    screening_id: SCREENING,
  },
  BANK_CANNOT_CONNECT: {
    code: 'BANK_CANNOT_CONNECT',
    value: 'Harbor Credit Union',
    screening_group_id: GROUP,
    screening_id: SCREENING,
  },
  NO_BANK: { code: 'NO_BANK', screening_group_id: GROUP, screening_id: SCREENING },
  SHARE_BANK: { code: 'SHARE_BANK', screening_group_id: GROUP, screening_id: SCREENING },
  NO_INCOME: { code: 'NO_INCOME', screening_group_id: GROUP, screening_id: SCREENING },
  RE_OPEN_SCREENING: { code: 'RE_OPEN_SCREENING', screening_group_id: GROUP, screening_id: SCREENING },
  REPORT_SOON_TO_EXPIRE: { code: 'REPORT_SOON_TO_EXPIRE', screening_group_id: GROUP },
  REPORT_EXPIRED: { code: 'REPORT_EXPIRED', screening_group_id: GROUP },
};
