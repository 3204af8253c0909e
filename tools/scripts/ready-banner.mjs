// What `npm start` (tools/scripts/start.mjs) prints last, once every app process is ready: where the
// service answers, the demo account's API keys when they were just created (shown this once: only a
// hash is stored), a short "try it" block, and where to read how to make a new key.

/**
 * The closing block of `npm start`, as lines (no trailing newline).
 *
 * - `baseUrl`: the service's links base (`PUBLIC_BASE_URL`, else `http://127.0.0.1:<PORT>`).
 * - `prepared`: what tools/scripts/prepare.ts reported: `seeding` is `provisioned` (then `demo` holds
 *   `{ name, account_id, api_keys: { <key name>: <raw key> } }`), `accounts_exist` or `disabled`
 *   (`SEED_DEMO=false`); null when it reported nothing.
 * - `apiProcesses`: how many api processes share the port.
 * - `notReady`: labels of the processes not ready yet (the block is then printed anyway, after the
 *   ready timeout or on a stop request, so that the keys are never lost); empty when all are ready.
 * - `logLevel`: the apps' `LOG_LEVEL` (`warn` by default under `npm start`).
 */
export function readyBanner({ baseUrl, prepared, apiProcesses, notReady = [], logLevel }) {
  const lines = [''];
  const apps = `${apiProcesses} api process${apiProcesses === 1 ? '' : 'es'} and 1 worker`;
  lines.push(
    notReady.length === 0
      ? `Leadflow is ready at ${baseUrl} (${apps}; Ctrl-C stops them all).`
      : `Leadflow is starting at ${baseUrl} (${apps}); not ready yet: ${notReady.join(', ')}.`,
  );
  const demo = prepared?.seeding === 'provisioned' ? prepared.demo : null;
  const keys = Object.entries(demo?.api_keys ?? {});
  if (demo && keys.length > 0) {
    const width = Math.max(...keys.map(([name]) => name.length));
    lines.push(
      '',
      `Demo account "${demo.name}" (account_id ${demo.account_id}). Its API keys, shown this once (only a hash is stored), copy them now:`,
      ...keys.map(([name, key]) => `  ${name.padEnd(width)}  ${key}`),
      '',
      'Try it:',
      `  export LEADFLOW_KEY=${(keys.find(([name]) => name === 'full') ?? keys[0])[1]}`,
      `  curl -s ${baseUrl}/v1/me -H "Authorization: Bearer $LEADFLOW_KEY"`,
      `  curl -s ${baseUrl}/v1/pipeline/stages -H "Authorization: Bearer $LEADFLOW_KEY"`,
    );
  } else {
    const why =
      prepared?.seeding === 'disabled'
        ? 'SEED_DEMO=false: no demo account, so no key was printed.'
        : 'The database already had accounts: no demo seeding, and keys are printed only when they are created.';
    lines.push('', why, 'Try it:', `  curl -s ${baseUrl}/health`);
  }
  lines.push(
    '',
    'Lost the keys? Create one with the operator API: README.md, "Trying the API", "A new API key".',
    `Logs: ${logLevel} and above${logLevel === 'warn' ? ' (LOG_LEVEL=info npm start also shows the boot and one line per request)' : ''}.`,
  );
  return lines;
}
