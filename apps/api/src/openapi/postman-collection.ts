import { convertV2 } from 'openapi-to-postmanv2';

/** A Postman collection (format v2.1) as JSON text. */
export type PostmanCollectionJson = string;

/**
 * Converts one OpenAPI description (YAML text) into a Postman collection v2.1 with Postman's own
 * converter (`openapi-to-postmanv2`), folders by tag, then points it at this service: the collection
 * variable `baseUrl` is `publicBaseUrl` (`PUBLIC_BASE_URL`) and every request authenticates with
 * `Authorization: Bearer {{<tokenVariable>}}` (collection variable, empty: paste the token there; `apiKey`
 * for the public description, `adminToken` for the operator one). About one second for our descriptions,
 * so the caller converts once and caches. Rejects when the converter refuses the description.
 */
export function toPostmanCollection(openApiYaml: string, publicBaseUrl: string, tokenVariable = 'apiKey'): Promise<PostmanCollectionJson> {
  return new Promise((resolvePromise, reject) => {
    convertV2({ type: 'string', data: openApiYaml }, { folderStrategy: 'Tags', parametersResolution: 'Example' }, (error, result) => {
      if (error) return reject(error);
      if (!result?.result || !result.output?.[0]) return reject(new Error(`OpenAPI → Postman conversion failed: ${result?.reason ?? 'no output'}`));
      const collection = result.output[0].data as Record<string, unknown>;
      collection.variable = [
        { key: 'baseUrl', value: publicBaseUrl, type: 'string' },
        { key: tokenVariable, value: '', type: 'string' },
      ];
      collection.auth = { type: 'bearer', bearer: [{ key: 'token', value: `{{${tokenVariable}}}`, type: 'string' }] };
      resolvePromise(JSON.stringify(collection));
    });
  });
}
