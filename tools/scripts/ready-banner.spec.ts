import { readyBanner } from './ready-banner.mjs';

/** The closing block of `npm start` (tools/scripts/ready-banner.mjs; issue 18, item 5). */
describe('npm start closing block', () => {
  const demo = { name: 'Rénovations Lavoie & Fils', account_id: '6f1c2d3e-0000-4000-8000-000000000001', api_keys: { full: 'lf_live_full', capture: 'lf_live_capture' } };
  const base = { baseUrl: 'http://127.0.0.1:3000', apiProcesses: 2, logLevel: 'warn' };

  it('prints the demo keys once provisioned, then a try-it block with the full key, then where to make a new key', () => {
    expect(readyBanner({ ...base, prepared: { seeding: 'provisioned', demo } })).toEqual([
      '',
      'Leadflow is ready at http://127.0.0.1:3000 (2 api processes and 1 worker; Ctrl-C stops them all).',
      '',
      'Demo account "Rénovations Lavoie & Fils" (account_id 6f1c2d3e-0000-4000-8000-000000000001). Its API keys, shown this once (only a hash is stored), copy them now:',
      '  full     lf_live_full',
      '  capture  lf_live_capture',
      '',
      'Try it:',
      '  export LEADFLOW_KEY=lf_live_full',
      '  curl -s http://127.0.0.1:3000/v1/me -H "Authorization: Bearer $LEADFLOW_KEY"',
      '  curl -s http://127.0.0.1:3000/v1/pipeline/stages -H "Authorization: Bearer $LEADFLOW_KEY"',
      '',
      'Lost the keys? Create one with the operator API: README.md, "Trying the API", "A new API key".',
      'Logs: warn and above (LOG_LEVEL=info npm start also shows the boot and one line per request).',
    ]);
  });

  it('says why no key is printed when the database already had accounts, or SEED_DEMO=false', () => {
    expect(readyBanner({ ...base, prepared: { seeding: 'accounts_exist', demo: null } })).toContain(
      'The database already had accounts: no demo seeding, and keys are printed only when they are created.',
    );
    expect(readyBanner({ ...base, prepared: { seeding: 'disabled', demo: null } })).toContain('SEED_DEMO=false: no demo account, so no key was printed.');
    expect(readyBanner({ ...base, prepared: null })).toContain('  curl -s http://127.0.0.1:3000/health');
  });

  it('names the processes not ready yet when printed early (ready timeout, stop request), keys included', () => {
    const lines = readyBanner({ ...base, apiProcesses: 1, notReady: ['worker'], prepared: { seeding: 'provisioned', demo } });
    expect(lines[1]).toBe('Leadflow is starting at http://127.0.0.1:3000 (1 api process and 1 worker); not ready yet: worker.');
    expect(lines).toContain('  full     lf_live_full');
  });

  it('an explicit LOG_LEVEL is reported as is', () => {
    expect(readyBanner({ ...base, logLevel: 'info', prepared: null }).at(-1)).toBe('Logs: info and above.');
  });
});
