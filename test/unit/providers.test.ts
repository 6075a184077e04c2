import { describe, expect, it } from 'vitest';
import {
  BUILT_IN_PROVIDERS,
  deliveryFor,
  knownProvider,
  mergeProviders,
  type ProviderCapabilities,
} from '../../src/domain/providers.js';

const FULL_CAPABILITIES: ProviderCapabilities = {
  acceptsSystemContext: false,
  acceptsDeveloperContext: false,
  acceptsSyntheticUserContext: false,
  canConsumeHandoffSummaries: true,
  canGenerateSummaries: false,
  supportsDeltaHandoff: false,
  supportsFullThreadHandoff: true,
  supportsModelSwitchInThread: false,
  maxRecommendedHandoffChars: 8_000,
  canForkThread: false,
  canForkFromTurn: false,
  canRollbackThread: false,
  nativeThreadIds: 'weak',
};

function builtIn(id: string) {
  const provider = BUILT_IN_PROVIDERS.find((candidate) => candidate.id === id);
  if (!provider) throw new Error(`no built-in ${id}`);
  return provider;
}

function errorOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('BUILT_IN_PROVIDERS', () => {
  it('holds codex and claude, in that order', () => {
    expect(BUILT_IN_PROVIDERS.map((provider) => provider.id)).toEqual(['codex', 'claude']);
    expect(builtIn('codex').displayName).toBe('Codex');
    expect(builtIn('claude').displayName).toBe('Claude');
  });

  it('gives codex developer context and not system context', () => {
    const { capabilities } = builtIn('codex');
    expect(capabilities.acceptsDeveloperContext).toBe(true);
    expect(capabilities.acceptsSystemContext).toBe(false);
    expect(deliveryFor(capabilities)).toBe('developer');
  });

  it('gives claude system context and not developer context', () => {
    const { capabilities } = builtIn('claude');
    expect(capabilities.acceptsSystemContext).toBe(true);
    expect(capabilities.acceptsDeveloperContext).toBe(false);
    expect(deliveryFor(capabilities)).toBe('system');
  });

  it.each(['codex', 'claude'])('gives %s the shared agent capabilities', (id) => {
    expect(builtIn(id).capabilities).toMatchObject({
      acceptsSyntheticUserContext: true,
      canConsumeHandoffSummaries: true,
      canGenerateSummaries: true,
      supportsDeltaHandoff: true,
      supportsFullThreadHandoff: true,
      supportsModelSwitchInThread: true,
      maxRecommendedHandoffChars: 32_000,
      canForkThread: true,
      canForkFromTurn: true,
      canRollbackThread: true,
      nativeThreadIds: 'strong',
    });
  });

  it('declares every capability for each built-in', () => {
    const keys = Object.keys(FULL_CAPABILITIES).sort();
    for (const provider of BUILT_IN_PROVIDERS) expect(Object.keys(provider.capabilities).sort()).toEqual(keys);
  });
});

describe('mergeProviders', () => {
  it('returns the built-ins for an empty providers list', () => {
    const merged = mergeProviders({ providers: [] }, 'test.json');
    expect(merged).toEqual(BUILT_IN_PROVIDERS);
  });

  it('lets an override of a built-in inherit the capabilities it leaves out', () => {
    const merged = mergeProviders(
      {
        providers: [
          {
            id: 'codex',
            displayName: 'Codex CLI',
            capabilities: { maxRecommendedHandoffChars: 12_000, supportsDeltaHandoff: false },
          },
        ],
      },
      'test.json',
    );
    expect(merged.map((provider) => provider.id)).toEqual(['codex', 'claude']);
    const codex = merged.find((provider) => provider.id === 'codex')!;
    expect(codex.displayName).toBe('Codex CLI');
    expect(codex.capabilities).toEqual({
      ...builtIn('codex').capabilities,
      maxRecommendedHandoffChars: 12_000,
      supportsDeltaHandoff: false,
    });
    expect(merged.find((provider) => provider.id === 'claude')).toEqual(builtIn('claude'));
  });

  it('accepts an override with no capabilities at all', () => {
    const merged = mergeProviders(
      { providers: [{ id: 'claude', displayName: 'Claude Code', capabilities: {} }] },
      'test.json',
    );
    const claude = merged.find((provider) => provider.id === 'claude')!;
    expect(claude.displayName).toBe('Claude Code');
    expect(claude.capabilities).toEqual(builtIn('claude').capabilities);
  });

  it('lets an override turn the handoff limit off with null', () => {
    const merged = mergeProviders(
      { providers: [{ id: 'codex', displayName: 'Codex', capabilities: { maxRecommendedHandoffChars: null } }] },
      'test.json',
    );
    expect(merged.find((provider) => provider.id === 'codex')!.capabilities.maxRecommendedHandoffChars).toBeNull();
  });

  it('does not change the built-ins when overriding them', () => {
    const before = structuredClone(BUILT_IN_PROVIDERS);
    mergeProviders(
      { providers: [{ id: 'codex', displayName: 'Other', capabilities: { canForkThread: false } }] },
      'test.json',
    );
    expect(BUILT_IN_PROVIDERS).toEqual(before);
    expect(builtIn('codex').capabilities.canForkThread).toBe(true);
  });

  it('adds a new provider that declares every capability, after the built-ins', () => {
    const merged = mergeProviders(
      { providers: [{ id: 'gemini', displayName: 'Gemini', capabilities: FULL_CAPABILITIES }] },
      'test.json',
    );
    expect(merged.map((provider) => provider.id)).toEqual(['codex', 'claude', 'gemini']);
    expect(merged[2]).toEqual({ id: 'gemini', displayName: 'Gemini', capabilities: FULL_CAPABILITIES });
  });

  it('rejects a new provider missing a capability, naming the source, the provider and the field', () => {
    const { canRollbackThread: _left, ...partial } = FULL_CAPABILITIES;
    const message = errorOf(() =>
      mergeProviders({ providers: [{ id: 'gemini', displayName: 'Gemini', capabilities: partial }] }, 'providers.json'),
    );
    expect(message).toMatch(/^providers\.json: /);
    expect(message).toContain('provider "gemini"');
    expect(message).toContain('canRollbackThread');
    expect(message).not.toContain('canForkThread');
  });

  it('rejects a new provider that declares only some capabilities, naming each missing field', () => {
    const message = errorOf(() =>
      mergeProviders(
        { providers: [{ id: 'gemini', displayName: 'Gemini', capabilities: { acceptsSystemContext: true } }] },
        'providers.json',
      ),
    );
    expect(message).toMatch(/^providers\.json: provider "gemini"/);
    for (const field of Object.keys(FULL_CAPABILITIES).filter((key) => key !== 'acceptsSystemContext'))
      expect(message).toContain(field);
    expect(message).not.toContain('acceptsSystemContext');
  });

  it('rejects a capability of the wrong type, naming the field', () => {
    const message = errorOf(() =>
      mergeProviders(
        { providers: [{ id: 'codex', displayName: 'Codex', capabilities: { supportsDeltaHandoff: 'yes' } }] },
        'providers.json',
      ),
    );
    expect(message).toMatch(/^providers\.json: /);
    expect(message).toContain('supportsDeltaHandoff');
  });

  it('rejects an unknown capability, naming it', () => {
    const message = errorOf(() =>
      mergeProviders(
        { providers: [{ id: 'codex', displayName: 'Codex', capabilities: { supportsTelepathy: true } }] },
        'providers.json',
      ),
    );
    expect(message).toMatch(/^providers\.json: /);
    expect(message).toContain('supportsTelepathy');
  });

  it('rejects a handoff limit out of range, naming the field', () => {
    for (const limit of [199, 10_000_001, 1.5]) {
      const message = errorOf(() =>
        mergeProviders(
          { providers: [{ id: 'codex', displayName: 'Codex', capabilities: { maxRecommendedHandoffChars: limit } }] },
          'providers.json',
        ),
      );
      expect(message).toContain('maxRecommendedHandoffChars');
    }
    expect(() =>
      mergeProviders(
        { providers: [{ id: 'codex', displayName: 'Codex', capabilities: { maxRecommendedHandoffChars: 200 } }] },
        'providers.json',
      ),
    ).not.toThrow();
  });

  it('rejects a bad nativeThreadIds value, naming the field', () => {
    const message = errorOf(() =>
      mergeProviders(
        { providers: [{ id: 'codex', displayName: 'Codex', capabilities: { nativeThreadIds: 'sometimes' } }] },
        'providers.json',
      ),
    );
    expect(message).toContain('nativeThreadIds');
  });

  it('rejects a bad provider id, naming the field', () => {
    for (const id of ['Gemini', '1gemini', 'ge mini', '']) {
      const message = errorOf(() =>
        mergeProviders({ providers: [{ id, displayName: 'G', capabilities: FULL_CAPABILITIES }] }, 'providers.json'),
      );
      expect(message).toMatch(/^providers\.json: /);
      expect(message).toContain('providers[0].id');
    }
  });

  it('rejects a missing displayName, naming the field', () => {
    const message = errorOf(() => mergeProviders({ providers: [{ id: 'codex', capabilities: {} }] }, 'providers.json'));
    expect(message).toContain('displayName');
  });

  it('rejects unknown fields on an entry and at the top level', () => {
    expect(
      errorOf(() =>
        mergeProviders({ providers: [{ id: 'codex', displayName: 'C', capabilities: {}, colour: 'red' }] }, 'src'),
      ),
    ).toContain('colour');
    expect(errorOf(() => mergeProviders({ providers: [], extra: 1 }, 'src'))).toContain('extra');
  });

  it('rejects content that is not a providers object, naming the source', () => {
    for (const content of [null, [], 'codex', {}, { providers: {} }]) {
      const message = errorOf(() => mergeProviders(content, 'my-source'));
      expect(message).toMatch(/^my-source: /);
    }
    expect(errorOf(() => mergeProviders({}, 'my-source'))).toContain('providers');
  });
});

describe('deliveryFor', () => {
  const none: ProviderCapabilities = {
    ...FULL_CAPABILITIES,
    acceptsDeveloperContext: false,
    acceptsSystemContext: false,
    acceptsSyntheticUserContext: false,
  };

  it('prefers developer context over everything', () => {
    expect(
      deliveryFor({
        ...none,
        acceptsDeveloperContext: true,
        acceptsSystemContext: true,
        acceptsSyntheticUserContext: true,
      }),
    ).toBe('developer');
    expect(deliveryFor({ ...none, acceptsDeveloperContext: true })).toBe('developer');
  });

  it('uses system context when developer context is not accepted', () => {
    expect(deliveryFor({ ...none, acceptsSystemContext: true, acceptsSyntheticUserContext: true })).toBe('system');
    expect(deliveryFor({ ...none, acceptsSystemContext: true })).toBe('system');
  });

  it('uses a synthetic user message when neither developer nor system context is accepted', () => {
    expect(deliveryFor({ ...none, acceptsSyntheticUserContext: true })).toBe('synthetic_user');
  });

  it('falls back to a preamble', () => {
    expect(deliveryFor(none)).toBe('preamble');
  });
});

describe('knownProvider', () => {
  const providers = new Map(BUILT_IN_PROVIDERS.map((provider) => [provider.id, provider]));

  it('answers the configured provider of that name', () => {
    expect(knownProvider(providers, 'codex')).toBe(providers.get('codex'));
  });

  it('refuses an unknown name at the field given, listing the known ones, echoing at most 200 characters', () => {
    const refuse = (name: string, field?: string) => {
      try {
        knownProvider(providers, name, field);
      } catch (error) {
        return error as { code: string; message: string; details: unknown };
      }
      throw new Error(`${name} was taken as known`);
    };
    expect(refuse('gemini')).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: `provider: unknown provider "gemini"; known: ${[...providers.keys()].join(', ')}`,
      details: { field: 'provider' },
    });
    expect(refuse('gemini', 'providerThread.provider').details).toEqual({ field: 'providerThread.provider' });
    expect(refuse('x'.repeat(100_000)).message).toContain('(100000 characters)');
    expect(refuse('x'.repeat(100_000)).message.length).toBeLessThan(400);
  });
});
