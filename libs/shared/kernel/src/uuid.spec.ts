import { isUuid, newId } from './uuid';

describe('newId: UUID version 7 identifiers', () => {
  it('is a version 7, RFC 9562 variant UUID that isUuid accepts', () => {
    const id = newId();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(isUuid(id)).toBe(true);
  });

  it('carries the creation instant in its first 48 bits (Unix milliseconds)', () => {
    const before = Date.now();
    const id = newId();
    const after = Date.now();
    const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    expect(millis).toBeGreaterThanOrEqual(before);
    expect(millis).toBeLessThanOrEqual(after);
  });

  it('ids made one after the other sort in creation order (index entries land on the right edge) and never repeat', () => {
    const ids = Array.from({ length: 10_000 }, () => newId());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
