/**
 * `npm run demo:capture`: replays tools/funnels/payloads against a running api and prints, per payload,
 * the expected and the actual outcome.
 *
 *   ADMIN_TOKEN=… npm run demo:capture            fresh account from funnel-account.json, every expectation checked
 *   ADMIN_TOKEN=… npm run demo:capture -- --wait  same, sleeping the real 6 minutes before file 59
 *   LEADFLOW_KEY=lf_live_… npm run demo:capture   an existing account (the seeded demo one): outcomes reported only
 *
 * Environment: `BASE_URL` (default http://127.0.0.1:3000), `ADMIN_TOKEN` (the operator token the api
 * runs with), `LEADFLOW_KEY` (a key with `leads:capture`, used when ADMIN_TOKEN is unset).
 *
 * The expectations hold only on a fresh account provisioned from funnel-account.json (README.md), so
 * with ADMIN_TOKEN the replay provisions one through `POST /admin/v1/accounts` and checks every file
 * (exit code 1 when one fails). Without it, files needing ids of that account (`{{placeholders}}`) are
 * skipped and the others are sent with LEADFLOW_KEY, their outcome printed without a verdict. A running
 * server keeps real time: files 59–64 need the 5 minute window to be over and are reported SKIPPED
 * unless `--wait` is given. Do not replay twice from one address within a minute (per-IP limit).
 */
import {
  checkFunnelResponse,
  expectedSummary,
  funnelAccount,
  funnelRequest,
  FunnelPayload,
  loadFunnelPayloads,
  newReplayState,
} from './funnel-replay';

interface Row {
  file: string;
  expected: string;
  actual: string;
  isNew: string;
  ignored: string;
  result: 'OK' | 'FAIL' | 'SKIPPED' | 'SENT';
  note: string;
}

const WINDOW_WAIT_MS = 6 * 60_000 + 15_000;

async function provision(baseUrl: string, adminToken: string): Promise<Record<string, unknown>> {
  const blueprint = { ...funnelAccount(), name: `${String(funnelAccount().name)} ${new Date().toISOString()}` };
  const response = await fetch(`${baseUrl}/admin/v1/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(blueprint),
  });
  const body = await response.json().catch(() => null);
  if (response.status !== 201) throw new Error(`POST /admin/v1/accounts answered ${response.status}: ${JSON.stringify(body)}`);
  return body as Record<string, unknown>;
}

function hasPlaceholder(payload: FunnelPayload): boolean {
  return /\{\{[A-Za-z0-9_.-]+\}\}/.test(JSON.stringify({ headers: payload.file.headers, body: payload.file.body ?? null }));
}

function actualSummary(status: number, body: Record<string, unknown> | null): string {
  if (!body) return String(status);
  return status === 200 ? `200 ${String(body.status)}` : `${status} ${String(body.code ?? '')}`.trim();
}

function ignoredSummary(body: Record<string, unknown> | null): string {
  const entries = Array.isArray(body?.ignored_fields) ? (body!.ignored_fields as { field: string; reason: string }[]) : [];
  return entries.map((entry) => `${entry.field || '""'}:${entry.reason}`).join(', ');
}

function printTable(rows: Row[]): void {
  const headers: Row = { file: 'payload', expected: 'expected', actual: 'actual', isNew: 'new', ignored: 'ignored_fields', result: 'OK', note: 'note' };
  const columns: (keyof Row)[] = ['file', 'expected', 'actual', 'isNew', 'result', 'ignored', 'note'];
  const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
  const limits: Record<keyof Row, number> = { file: 48, expected: 30, actual: 30, isNew: 5, result: 7, ignored: 70, note: 90 };
  const widths = Object.fromEntries(
    columns.map((column) => [column, Math.max(column === 'result' ? 6 : String(headers[column]).length, ...rows.map((row) => clip(String(row[column]), limits[column]).length))]),
  ) as Record<keyof Row, number>;
  const line = (row: Row | Record<keyof Row, string>) => columns.map((column) => clip(String(row[column]), limits[column]).padEnd(widths[column])).join(' │ ');
  console.log(line({ ...headers, result: 'result' }));
  console.log(columns.map((column) => '─'.repeat(widths[column])).join('─┼─'));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  const baseUrl = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/+$/, '');
  const adminToken = process.env.ADMIN_TOKEN || null;
  const demoKey = process.env.LEADFLOW_KEY || null;
  const wait = process.argv.includes('--wait');
  if (!adminToken && !demoKey) {
    console.error('Set ADMIN_TOKEN (provisions a fresh funnel account, checks every expectation) or LEADFLOW_KEY (a capture key of an existing account, outcomes only).');
    process.exit(2);
  }
  const checking = adminToken !== null;
  let context: Record<string, unknown> = {};
  let token: string;
  if (adminToken) {
    context = await provision(baseUrl, adminToken);
    token = (context.api_keys as Record<string, { key: string }>).capture.key;
    console.log(`Provisioned account ${String(context.account_id)} from tools/funnels/funnel-account.json on ${baseUrl}\n`);
  } else {
    token = demoKey!;
    console.log(`No ADMIN_TOKEN: replaying with LEADFLOW_KEY on its account at ${baseUrl}; outcomes are reported, not checked (the expectations need a fresh funnel account).\n`);
  }

  const state = newReplayState();
  const rows: Row[] = [];
  let windowOver = false;
  for (const payload of loadFunnelPayloads()) {
    const expected = expectedSummary(payload.file.expect);
    const row: Row = { file: payload.stem, expected, actual: '', isNew: '', ignored: '', result: 'SKIPPED', note: '' };
    rows.push(row);
    if (payload.file.advance_clock_minutes && !windowOver) {
      if (!wait) {
        row.note = `needs clock +${payload.file.advance_clock_minutes} min (run with --wait)`;
        break;
      }
      console.log(`Waiting ${Math.round(WINDOW_WAIT_MS / 1000)} s of real time before ${payload.stem} (the 5 minute window)…`);
      await new Promise((resolve) => setTimeout(resolve, WINDOW_WAIT_MS));
      windowOver = true;
    }
    if (!checking && hasPlaceholder(payload)) {
      row.note = 'needs ids of a provisioned funnel account (ADMIN_TOKEN)';
      continue;
    }
    const { headers, body } = funnelRequest(payload, token, context);
    const response = await fetch(`${baseUrl}/v1/leads/capture`, { method: 'POST', headers, body });
    const text = await response.text();
    let parsed: Record<string, unknown> | null = null;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = null;
    }
    row.actual = actualSummary(response.status, parsed);
    row.isNew = typeof parsed?.contact_was_new === 'boolean' ? String(parsed.contact_was_new) : '';
    row.ignored = ignoredSummary(parsed);
    if (checking) {
      const failures = checkFunnelResponse(payload, response.status, parsed, state);
      row.result = failures.length === 0 ? 'OK' : 'FAIL';
      row.note = failures.join('; ');
    } else {
      row.result = 'SENT';
    }
  }
  const sent = new Set(rows.map((row) => row.file));
  for (const payload of loadFunnelPayloads()) {
    if (!sent.has(payload.stem)) {
      rows.push({ file: payload.stem, expected: expectedSummary(payload.file.expect), actual: '', isNew: '', ignored: '', result: 'SKIPPED', note: 'after the 5 minute window (run with --wait)' });
    }
  }
  printTable(rows);
  const count = (result: Row['result']) => rows.filter((row) => row.result === result).length;
  console.log(`\n${rows.length} payloads: ${count('OK')} OK, ${count('FAIL')} FAIL, ${count('SKIPPED')} SKIPPED${checking ? '' : `, ${count('SENT')} sent without verdict`}.`);
  if (count('FAIL') > 0) process.exit(1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
