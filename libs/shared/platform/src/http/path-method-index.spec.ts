import { PathMethodIndex } from './fastify-setup';

describe('PathMethodIndex (the Allow header of a 405)', () => {
  const index = new PathMethodIndex([
    { method: 'GET', path: '/v1/contacts' },
    { method: 'POST', path: '/v1/contacts' },
    { method: 'GET', path: '/v1/contacts/:id' },
    { method: 'PATCH', path: '/v1/contacts/:id' },
    { method: 'POST', path: '/v1/contacts/search' },
    { method: 'GET', path: '/files/*' },
    { method: 'OPTIONS', path: '*' },
    { method: 'OPTIONS', path: '/*' },
  ]);

  it.each([
    ['/v1/contacts', ['GET', 'HEAD', 'POST']],
    ['/v1/contacts/abc', ['GET', 'HEAD', 'PATCH']],
    ['/v1/contacts/search', ['GET', 'HEAD', 'PATCH', 'POST']],
    ['/files/a/b', ['GET', 'HEAD']],
    ['/v1/contacts/abc/tags', []],
    ['/v1/contacts/', []],
    ['/nowhere', []],
    ['', []],
  ] as const)('%s serves %j (catch-all routes do not count)', (path, methods) => {
    expect(index.allowedMethods(path)).toEqual(methods);
  });
});
