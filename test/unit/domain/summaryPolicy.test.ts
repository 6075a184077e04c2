import { describe, expect, it } from 'vitest';
import { BUILT_IN_PROVIDERS, type ProviderDefinition } from '../../../src/domain/providers.js';
import {
  DEFAULT_SUMMARY_POLICY,
  LOCAL_SUMMARY_WRITER,
  parseSummaryPolicy,
  sourceLabel,
  summarySourceFor,
  summaryWriterFor,
  type SummaryPolicy,
} from '../../../src/domain/summaryPolicy.js';

const REMOTE = { baseUrl: 'http://127.0.0.1:9/v1', model: 'summary-model' };

function refusal(content: unknown): string {
  try {
    parseSummaryPolicy(content, 'summaries.json');
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the policy to be refused');
}

describe('parseSummaryPolicy', () => {
  it('reads an empty file as the default policy: local summaries, pending handoffs expire after 600 s', () => {
    expect(parseSummaryPolicy({}, 'summaries.json')).toEqual(DEFAULT_SUMMARY_POLICY);
    expect(DEFAULT_SUMMARY_POLICY).toEqual({
      default: 'local',
      providers: {},
      summarizers: {},
      pendingTimeoutSeconds: 600,
    });
  });

  it('fills a summarizer defaults: no API key, 30 s', () => {
    const policy = parseSummaryPolicy({ default: 'remote', summarizers: { remote: REMOTE } }, 'summaries.json');
    expect(policy.summarizers.remote).toEqual({ ...REMOTE, apiKeyEnv: null, timeoutMs: 30_000 });
  });

  it('takes every built-in source and any configured summarizer as a policy value', () => {
    const policy = parseSummaryPolicy(
      {
        default: 'leaving',
        providers: { codex: 'entering', claude: 'local', gemini: 'remote' },
        summarizers: { remote: REMOTE },
      },
      'summaries.json',
    );
    expect(policy).toMatchObject({
      default: 'leaving',
      providers: { codex: 'entering', claude: 'local', gemini: 'remote' },
    });
  });

  it('refuses a policy value that is neither a built-in source nor a configured summarizer, naming where it is', () => {
    expect(refusal({ default: 'remote' })).toBe(
      'summaries.json: default: "remote" is not local, leaving, entering or a configured summarizer',
    );
    expect(refusal({ providers: { codex: 'remote' } })).toBe(
      'summaries.json: providers.codex: "remote" is not local, leaving, entering or a configured summarizer',
    );
  });

  it('refuses unknown keys, empty values and out-of-range numbers, prefixed with the file it read', () => {
    for (const content of [
      { unknown: true },
      { default: '' },
      { providers: { codex: '' } },
      { pendingTimeoutSeconds: 0 },
      { pendingTimeoutSeconds: 86_401 },
      { pendingTimeoutSeconds: 1.5 },
      { summarizers: { remote: { ...REMOTE, timeoutMs: 99 } } },
      { summarizers: { remote: { ...REMOTE, timeoutMs: 600_001 } } },
      { summarizers: { remote: { ...REMOTE, extra: 1 } } },
      { summarizers: { remote: { ...REMOTE, baseUrl: 'not a url' } } },
      { summarizers: { remote: { ...REMOTE, apiKeyEnv: 'lower_case' } } },
      { summarizers: { Remote: REMOTE } },
      { summarizers: { '9remote': REMOTE } },
      null,
      [],
    ]) {
      expect(refusal(content), JSON.stringify(content)).toMatch(/^summaries\.json: /);
    }
  });

  it('accepts the bounds themselves', () => {
    expect(parseSummaryPolicy({ pendingTimeoutSeconds: 1 }, 'summaries.json').pendingTimeoutSeconds).toBe(1);
    expect(parseSummaryPolicy({ pendingTimeoutSeconds: 86_400 }, 'summaries.json').pendingTimeoutSeconds).toBe(86_400);
    const bounds = {
      a: { ...REMOTE, timeoutMs: 100 },
      ['b'.repeat(64)]: { ...REMOTE, timeoutMs: 600_000, apiKeyEnv: '_KEY_1' },
    };
    expect(Object.keys(parseSummaryPolicy({ summarizers: bounds }, 'summaries.json').summarizers)).toEqual([
      'a',
      'b'.repeat(64),
    ]);
    expect(refusal({ summarizers: { ['b'.repeat(65)]: REMOTE } })).toContain(`summarizers.${'b'.repeat(65)}`);
  });
});

describe('summarySourceFor', () => {
  const policy: SummaryPolicy = {
    default: 'leaving',
    providers: { codex: 'remote', claude: 'entering' },
    summarizers: { remote: { ...REMOTE, apiKeyEnv: null, timeoutMs: 30_000 } },
    pendingTimeoutSeconds: 600,
  };

  it('takes the provider own value, else the default', () => {
    expect(summarySourceFor(policy, 'codex')).toEqual({ kind: 'configured', name: 'remote' });
    expect(summarySourceFor(policy, 'claude')).toEqual({ kind: 'entering' });
    expect(summarySourceFor(policy, 'gemini')).toEqual({ kind: 'leaving' });
    expect(summarySourceFor(DEFAULT_SUMMARY_POLICY, 'codex')).toEqual({ kind: 'local' });
  });

  it('lets an explicit source win over the policy', () => {
    expect(summarySourceFor(policy, 'codex', 'local')).toEqual({ kind: 'local' });
    expect(summarySourceFor(policy, 'claude', 'remote')).toEqual({ kind: 'configured', name: 'remote' });
  });

  it('answers null for a name that is no source', () => {
    expect(summarySourceFor(policy, 'codex', 'elsewhere')).toBeNull();
    expect(summarySourceFor(policy, 'codex', 'Local')).toBeNull();
  });

  it('takes no name inherited from Object.prototype for a summarizer or a provider value', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty']) {
      expect(summarySourceFor(policy, 'codex', name), name).toBeNull();
      expect(summarySourceFor(policy, name), name).toEqual({ kind: 'leaving' });
      expect(refusal({ default: name }), name).toBe(
        `summaries.json: default: "${name}" is not local, leaving, entering or a configured summarizer`,
      );
    }
  });
});

describe('sourceLabel', () => {
  it('stores local, configured:<name> or provider:<writer>', () => {
    expect(sourceLabel({ kind: 'local' }, 'codex')).toBe('local');
    expect(sourceLabel({ kind: 'configured', name: 'remote' }, null)).toBe('configured:remote');
    expect(sourceLabel({ kind: 'leaving' }, 'codex')).toBe('provider:codex');
    expect(sourceLabel({ kind: 'entering' }, 'claude')).toBe('provider:claude');
  });
});

describe('summaryWriterFor', () => {
  const [codex, claude] = BUILT_IN_PROVIDERS as [ProviderDefinition, ProviderDefinition];
  const mute: ProviderDefinition = {
    id: 'mute',
    displayName: 'Mute',
    capabilities: { ...claude.capabilities, canGenerateSummaries: false },
  };

  it('asks the provider being left or entered when it can write summaries', () => {
    expect(summaryWriterFor({ kind: 'entering' }, { leaving: codex, entering: claude })).toEqual({
      label: 'provider:claude',
      name: 'claude',
      createdByProvider: 'claude',
      reason: 'claude (the entering provider) is asked to write the handoff summary.',
    });
    expect(summaryWriterFor({ kind: 'leaving' }, { leaving: codex, entering: mute })).toMatchObject({
      label: 'provider:codex',
      name: 'codex',
      createdByProvider: 'codex',
    });
  });

  it('leaves it to the local summarizer, saying why, when that provider cannot write summaries or there is none', () => {
    expect(summaryWriterFor({ kind: 'entering' }, { leaving: codex, entering: mute })).toEqual({
      ...LOCAL_SUMMARY_WRITER,
      reason:
        'The summary was asked of the entering provider (mute), which cannot write summaries; the local summarizer writes it.',
    });
    expect(summaryWriterFor({ kind: 'leaving' }, { leaving: mute, entering: claude })).toMatchObject({
      ...LOCAL_SUMMARY_WRITER,
      reason: expect.stringContaining('leaving provider (mute)'),
    });
    expect(summaryWriterFor({ kind: 'leaving' }, { leaving: null, entering: claude })).toMatchObject({
      ...LOCAL_SUMMARY_WRITER,
      reason: expect.stringContaining('the leaving provider, which cannot'),
    });
  });

  it('takes local and a configured summarizer as named, whatever the providers can do', () => {
    expect(summaryWriterFor({ kind: 'local' }, { leaving: codex, entering: claude })).toEqual(LOCAL_SUMMARY_WRITER);
    expect(summaryWriterFor({ kind: 'configured', name: 'remote' }, { leaving: mute, entering: mute })).toEqual({
      label: 'configured:remote',
      name: 'remote',
      createdByProvider: null,
      reason: null,
    });
  });
});
