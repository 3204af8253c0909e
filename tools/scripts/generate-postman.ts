import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { generatePostmanCollections } from './postman-converter';

/**
 * Regenerates the Postman collections checked in beside the OpenAPI descriptions (issue 16, item 6):
 *
 *   node -r @swc-node/register tools/scripts/generate-postman.ts           # writes apps/api/openapi/postman*.json
 *   node -r @swc-node/register tools/scripts/generate-postman.ts --check   # exit 1 when one is stale
 *
 * Run it after every change of a description; `postman-collections.spec.ts` (in `npm test`) fails when
 * a checked-in collection differs from a fresh conversion.
 */
async function main(): Promise<number> {
  const dir = resolve(__dirname, '..', '..', 'apps', 'api', 'openapi');
  const check = process.argv.includes('--check');
  const collections = await generatePostmanCollections(dir, (path) => readFileSync(path, 'utf8'));
  let stale = 0;
  for (const [file, text] of collections) {
    const path = resolve(dir, file);
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = '';
    }
    if (current === text) continue;
    stale += 1;
    if (check) console.error(`stale: apps/api/openapi/${file}`);
    else {
      writeFileSync(path, text);
      console.log(`written: apps/api/openapi/${file}`);
    }
  }
  if (check && stale > 0) console.error('Run: node -r @swc-node/register tools/scripts/generate-postman.ts');
  if (stale === 0) console.log('Postman collections up to date.');
  return check && stale > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
