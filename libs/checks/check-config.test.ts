import { describe, expect, it } from 'vitest';
import { defaultCheckConfig, mergeCheckConfig } from '../websites/index.js';
import { type CheckConfig, checkConfigSchema } from './check-config.js';

const allowed = () => true;
const stored: CheckConfig = defaultCheckConfig('https://shop.example.com/', allowed);
const pathsOf = (result: ReturnType<typeof mergeCheckConfig>) =>
  result.ok ? [] : result.invalid.map((problem) => problem.path);

describe('checkConfigSchema', () => {
  it('accepts a new website’s configuration as it is', () => {
    expect(checkConfigSchema.parse(stored)).toEqual(stored);
  });

  it('stores status codes as trimmed strings, numbers included', () => {
    const parsed = checkConfigSchema.parse({ ...stored, expectedStatusCodes: [200, ' 301-302 '] });
    expect(parsed.expectedStatusCodes).toEqual(['200', '301-302']);
  });

  it.each([
    [{ expectedStatusCodes: ['600'] }, 'expectedStatusCodes.0'],
    [{ expectedStatusCodes: ['299-200'] }, 'expectedStatusCodes.0'],
    [{ maxPageSize: 100 * 1024 * 1024 + 1 }, 'maxPageSize'],
    [{ minPageSize: 10, maxPageSize: 5 }, 'minPageSize'],
    [{ checkSizeEnabled: true }, 'checkSizeEnabled'],
    [{ checkKeywordEnabled: true }, 'keyword'],
  ])('refuses %j at %s', (fields, path) => {
    const result = checkConfigSchema.safeParse({ ...stored, ...fields });
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual([path]);
  });
});

describe('mergeCheckConfig', () => {
  it('merges a valid patch into the whole configuration', () => {
    const result = mergeCheckConfig(stored, { checkKeywordEnabled: true, keyword: 'Welcome' }, allowed);
    expect(result).toEqual({
      ok: true,
      config: { ...stored, checkKeywordEnabled: true, keyword: 'Welcome' },
    });
  });

  it.each([
    [{ expectedStatusCodes: ['abc'] }, 'expectedStatusCodes.0'],
    [{ checkSizeEnabled: true }, 'checkSizeEnabled'],
  ])('refuses a stored configuration with %j instead of keeping it, naming %s', (fields, path) => {
    // Written before a rule existed, or by hand: a patch of another field must not carry it on.
    const broken: CheckConfig = { ...stored, ...fields };
    expect(pathsOf(mergeCheckConfig(broken, { keywordCaseSensitive: true }, allowed))).toEqual([path]);
  });

  it('the patch can repair what the stored configuration broke', () => {
    const broken: CheckConfig = { ...stored, expectedStatusCodes: ['abc'] };
    expect(mergeCheckConfig(broken, { expectedStatusCodes: ['200'] }, allowed).ok).toBe(true);
  });

  it('names the switches the package does not allow', () => {
    const result = mergeCheckConfig(
      stored,
      { checkKeywordEnabled: true, keyword: 'x' },
      (feature) => feature !== 'keywordCheck',
    );
    expect(result).toEqual({
      ok: false,
      invalid: [],
      forbidden: [{ path: 'checkKeywordEnabled', feature: 'keywordCheck' }],
    });
  });
});
