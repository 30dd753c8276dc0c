/**
 * The mock's console in a real browser: Debian's chromium, headless, driven by playwright-core,
 * against the bin's work (`startMockBin`, as `npx applicant-verification-mock` runs it). A group
 * created with the SDK appears; each button changes what the page shows through the control API;
 * axe-core finds no serious violation; the browser console stays free of errors; a hostile name
 * shows as typed; a narrow window keeps every control reachable. Screenshots of each step go to
 * .tmp/console/ (docs/images/console.png is one of them). `npm run test:browser`, not `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockBin } from '../../src/testing/bin-main.js';
import type { MockServer } from '../../src/testing/index.js';
import { type Receiver, startReceiver } from '../testing/receiver.js';

const SCREENS = '.tmp/console';

/** The page's globals the test reads inside `page.evaluate` (the project's types have no DOM lib). */
interface PageGlobals {
  __pwned?: number;
  axe: typeof axe;
  document: {
    documentElement: { scrollWidth: number; clientWidth: number };
    activeElement: { textContent: string | null } | null;
  };
  scrollTo(x: number, y: number): void;
}
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

/** The chromium on the PATH (Debian's `chromium`, installed by .ci/run), or CHROMIUM_PATH. */
function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], {
    encoding: 'utf8',
  }).trim();
}

describe('the mock console in headless Chromium', () => {
  let browser: Browser;
  let page: Page;
  let mock: MockServer;
  let receiver: Receiver;
  const consoleErrors: string[] = [];
  let step = 0;

  /** Saves the page (the whole page, or what the window shows) as the next step's screenshot. */
  const shot = async (name: string, fullPage = true) => {
    step += 1;
    await page.screenshot({ path: `${SCREENS}/${String(step).padStart(2, '0')}-${name}.png`, fullPage });
  };
  /** The card of the group whose property is `property`. */
  const groupCard = (property: string) => page.locator('#groups article', { hasText: property });

  beforeAll(async () => {
    mkdirSync(SCREENS, { recursive: true });
    receiver = await startReceiver();
    const started = await startMockBin(
      ['--port', '0', '--seed', '7', '--now', '2026-03-02T15:00:00Z', '--frozen'],
      {
        out: () => undefined,
        err: () => undefined,
        env: {},
      },
    );
    if (!started) throw new Error('the bin did not start');
    mock = started;
    // CI runs as root, where Chromium needs --no-sandbox.
    const root = process.getuid?.() === 0;
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: root ? ['--no-sandbox'] : [],
    });
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await mock?.close();
    await receiver?.close();
  });

  it('the bin serves the console beside the API, on loopback', async () => {
    expect(mock.consoleUrl).toBe(`${mock.url}/__mock/console`);
    await page.goto(mock.consoleUrl ?? '');
    await page.locator('#live', { hasText: 'Live' }).waitFor();
    expect(await page.locator('#groups').textContent()).toContain('No groups yet');
    expect(await page.locator('#clock').textContent()).toBe('2026-03-02T15:00:00.000Z');
  });

  it('a group created with the SDK appears within a second, its invitations as the applicants read them', async () => {
    const client = mock.client();
    const group = await client.applicantGroups.create({
      applicants: [
        {
          first_name: HOSTILE,
          last_name: 'Tables',
          email: 'bobby@example.com',
          phone_number: '+14155550123',
        },
        { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' },
      ],
      property: {
        name: 'Harbor Lofts',
        street_address: '5 Pier Road',
        city: 'Portland',
        state: 'Oregon',
        zip_code: '97201',
        unit: '3A',
      },
      decision_maker_display_name: 'Harbor Lofts Leasing',
      monthly_rent: 2100,
      correlation_id: 'lease-4711',
      webhook_url: receiver.url,
    });
    // Within a second of the create (the page polls four times a second).
    await groupCard('Harbor Lofts').waitFor({ timeout: 1_000 });
    const card = groupCard('Harbor Lofts');
    expect(await card.textContent()).toContain('lease-4711');
    expect(await card.textContent()).toContain(group.id);

    // A hostile name is text: shown as typed, no element made of it, no script run.
    expect(await card.locator('h4').first().textContent()).toBe(`${HOSTILE} Tables`);
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).__pwned)).toBeUndefined();

    const outbox = page.locator('#outbox article');
    await outbox.nth(2).waitFor();
    expect(await outbox.count()).toBe(3);
    const email = outbox.filter({ hasText: 'Email to bobby@example.com' });
    expect(await email.textContent()).toContain(`Hi ${HOSTILE},`);
    expect(await email.textContent()).toContain(
      'Harbor Lofts Leasing asks you to verify your income for Harbor Lofts, unit 3A',
    );
    expect(await outbox.filter({ hasText: 'Text message to +14155550123' }).count()).toBe(1);
    await shot('group-created');
  });

  it('Complete shows the applicant completed, its webhook deliveries signed and delivered, and its report', async () => {
    const card = groupCard('Harbor Lofts');
    await card.getByRole('button', { name: 'Complete Grace Hopper' }).click();
    await card
      .locator('.member', { hasText: 'Grace Hopper' })
      .locator('.badge', { hasText: 'completed' })
      .waitFor();
    expect(await card.locator('.member', { hasText: 'Grace Hopper' }).textContent()).toContain('(finished)');
    await mock.deliveries.settled();

    const ready = page.locator('#deliveries article', { hasText: 'REPORT_READY' });
    await ready.locator('.badge', { hasText: 'delivered (204)' }).first().waitFor();
    expect(await ready.first().textContent()).toContain('Signaturevalid');
    await page.locator('#deliveries article', { hasText: 'VERIFICATION_COMPLETED' }).first().waitFor();
    const report = page.locator('#reports article').first();
    await report.waitFor();
    expect(await report.textContent()).toMatch(/Recurring income\$[\d,]+\.\d\d/);
    const pdf = report.getByRole('link', { name: /Open the PDF/ });
    const href = await pdf.getAttribute('href');
    const opened = await page.request.get(`${mock.url}${href}`);
    expect(opened.headers()['content-type']).toBe('application/pdf');
    expect((await opened.body()).subarray(0, 5).toString()).toBe('%PDF-');
    await shot('completed');
  });

  it('an injected webhook fault makes the next delivery fail, and Redeliver sends it again', async () => {
    await page.getByLabel('Fault', { exact: true }).selectOption('drop');
    await page.getByRole('button', { name: 'Inject webhook fault' }).click();
    await page.locator('#pending-faults', { hasText: 'Webhook fault drop for the next 1 event' }).waitFor();

    const card = groupCard('Harbor Lofts');
    await card.getByRole('button', { name: `Fail ${HOSTILE} Tables` }).click();
    const member = card.locator('.member', { hasText: `${HOSTILE} Tables` });
    await member.locator('.badge', { hasText: 'completed' }).waitFor();
    expect(await member.textContent()).toContain('(bank_cannot_connect)');
    const dropped = page.locator('#deliveries article', { hasText: 'dropped by a fault' });
    await dropped.waitFor();
    expect(await dropped.textContent()).toContain('Injected faultdrop');
    const droppedId = Number((await dropped.getAttribute('data-delivery')) ?? '0');
    const dropRecord = mock.deliveries.all().find((record) => record.id === droppedId);
    expect(dropRecord).toMatchObject({ dropped: true, delivered: false, fault: { drop: true } });
    await shot('fault-dropped');

    await dropped.getByRole('button', { name: `Redeliver delivery ${droppedId}` }).click();
    const again = page.locator('#deliveries article', { hasText: `Redelivery of#${droppedId}` });
    await again.waitFor();
    await mock.deliveries.settled();
    await again.locator('.badge', { hasText: 'delivered (204)' }).waitFor();
    expect(receiver.received.filter((r) => r.body === dropRecord?.body)).toHaveLength(1);
    await shot('redelivered');
  });

  it('the clock advances, a group expires, filters narrow by account, group and correlation id', async () => {
    await page.getByRole('button', { name: 'Advance 1 day' }).click();
    await page.locator('#clock', { hasText: '2026-03-03T15:00:00.000Z' }).waitFor();

    await mock.client().applicantGroups.create({
      applicants: [{ first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com' }],
      property: {
        name: 'Bletchley Row',
        street_address: '1 Park Lane',
        city: 'Austin',
        state: 'Texas',
        zip_code: '73301',
      },
      decision_maker_display_name: 'Bletchley Leasing',
      monthly_rent: 1500,
      correlation_id: 'lease-9000',
    });
    await groupCard('Bletchley Row').waitFor();
    await groupCard('Bletchley Row').getByRole('button', { name: 'Expire group Bletchley Row' }).click();
    await groupCard('Bletchley Row').locator('.badge', { hasText: 'expired' }).waitFor();
    expect(mock.groups.applicant().find((g) => g.property.name === 'Bletchley Row')?.is_expired).toBe(true);

    await page.getByLabel('Correlation id').fill('9000');
    await page.locator('#groups article').filter({ hasText: 'Harbor Lofts' }).waitFor({ state: 'detached' });
    expect(await page.locator('#groups article').count()).toBe(1);
    expect(await page.locator('#outbox article').count()).toBe(1);
    expect(await page.locator('#deliveries article').count()).toBe(0);
    await page.getByLabel('Correlation id').fill('');
    const harbor = mock.groups.applicant().find((g) => g.property.name === 'Harbor Lofts');
    await page.getByLabel('Group', { exact: true }).selectOption(harbor?.id ?? '');
    await page.locator('#groups article').filter({ hasText: 'Bletchley Row' }).waitFor({ state: 'detached' });
    expect(await page.locator('#groups article').count()).toBe(1);
    await page.getByLabel('Group', { exact: true }).selectOption('');
    await page.getByLabel('Account', { exact: true }).selectOption('mock-client-id');
    await page.locator('#groups article').nth(1).waitFor();
    expect(await page.locator('#groups article').count()).toBe(2);
    await shot('expired-and-filters');
  });

  it('a request fault injected from the page fails the next API call, and Clear removes one still pending', async () => {
    await page.getByLabel('Status', { exact: true }).selectOption('503');
    await page.getByLabel('Path (optional)').fill('/api/v1/applicant_groups');
    await page.getByRole('button', { name: 'Inject request fault' }).click();
    const pending = page.locator('#pending-faults', {
      hasText: 'Request fault {"status":503} for the next 1 request',
    });
    await pending.waitFor();
    const answer = await fetch(`${mock.url}/api/v1/applicant_groups`, {
      headers: { authorization: 'Bearer x' },
    });
    expect(answer.status).toBe(503);
    await page.locator('#pending-faults', { hasText: 'None.' }).waitFor();

    await page.getByRole('button', { name: 'Inject request fault' }).click();
    await pending.waitFor();
    await page.getByRole('button', { name: 'Clear request faults' }).click();
    await page.locator('#pending-faults', { hasText: 'None.' }).waitFor();
    expect(mock.faults.pending()).toEqual([]);
  });

  it('axe-core finds no serious or critical violation', async () => {
    await page.evaluate(axe.source);
    const result = await page.evaluate(async () => {
      const found = await (globalThis as unknown as PageGlobals).axe.run({
        runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      });
      return {
        passed: found.passes.map(({ id }) => id),
        violations: found.violations.map(({ id, impact, nodes }) => ({
          id,
          impact,
          targets: nodes.map((n) => n.target.join(' ')),
        })),
      };
    });
    // The rules that matter here ran and held: labels, contrast, names of buttons and links.
    expect(result.passed).toEqual(
      expect.arrayContaining(['label', 'color-contrast', 'button-name', 'link-name', 'html-has-lang']),
    );
    expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  it('keyboard alone reaches and presses a control', async () => {
    await page.getByRole('button', { name: 'Reset the mock' }).focus();
    await page.keyboard.press('Shift+Tab');
    const focused = await page.evaluate(
      () => (globalThis as unknown as PageGlobals).document.activeElement?.textContent ?? '',
    );
    expect(focused).toBe('Advance');
    await page.getByLabel('Advance by minutes').fill('90');
    await page.getByLabel('Advance by minutes').press('Enter');
    await page.locator('#clock', { hasText: '2026-03-03T16:30:00.000Z' }).waitFor();
  });

  it('a narrow window keeps every control reachable', async () => {
    await page.setViewportSize({ width: 360, height: 740 });
    const overflow = await page.evaluate(() => {
      const root = (globalThis as unknown as PageGlobals).document.documentElement;
      return root.scrollWidth - root.clientWidth;
    });
    expect(overflow).toBe(0);
    const controls = page.locator('main button, main input, main select, main a, main summary');
    const count = await controls.count();
    expect(count).toBeGreaterThan(20);
    const outside: string[] = [];
    for (let i = 0; i < count; i++) {
      const control = controls.nth(i);
      await control.scrollIntoViewIfNeeded();
      const box = await control.boundingBox();
      if (!box || box.x < 0 || box.x + box.width > 360 || box.width === 0)
        outside.push((await control.textContent()) ?? (await control.getAttribute('id')) ?? String(i));
    }
    expect(outside).toEqual([]);
    await page.evaluate(() => (globalThis as unknown as PageGlobals).scrollTo(0, 0));
    await shot('narrow', false);
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  it('Reset empties the page, and the browser console stayed free of errors', async () => {
    await page.evaluate(() => (globalThis as unknown as PageGlobals).scrollTo(0, 0));
    await shot('overview');
    await page.getByRole('button', { name: 'Reset the mock' }).click();
    await page.locator('#groups', { hasText: 'No groups yet' }).waitFor();
    expect(await page.locator('#deliveries').textContent()).toContain('No webhook deliveries');
    expect(await page.locator('#reports').textContent()).toContain('No reports');
    expect(consoleErrors).toEqual([]);
  });
});
