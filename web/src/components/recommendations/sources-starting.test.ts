import { describe, expect, it } from 'vitest';
import { refetchWhileSourcesStart, SOURCES_STARTING_REFETCH_MS } from './sources-starting';

const withSources = (state?: string) => ({
  state: {
    data: {
      empty_explanation: {
        cause: 'no_items' as const,
        message: '还没有任何论文',
        suggestion: '',
        change: null,
        ...(state ? { sources: { state: state as 'first_fetch' } } : {}),
      },
    },
  },
});

describe('refetchWhileSourcesStart', () => {
  it('asks again while the first fetch is queued or running, never otherwise', () => {
    expect(refetchWhileSourcesStart(withSources('first_fetch'))).toBe(SOURCES_STARTING_REFETCH_MS);
    expect(refetchWhileSourcesStart(withSources('waiting'))).toBe(SOURCES_STARTING_REFETCH_MS);
    for (const state of ['no_source', 'failing', 'ran_empty', 'no_fields']) {
      expect(refetchWhileSourcesStart(withSources(state))).toBe(false);
    }
    // A backend answering only the spec's fields: no explanation, or one without `sources`.
    expect(refetchWhileSourcesStart(withSources())).toBe(false);
    expect(refetchWhileSourcesStart({ state: { data: undefined } })).toBe(false);
  });

  it('asks again while some sources fail and others are still on their first fetch', () => {
    const query = withSources('failing');
    const sources = {
      state: 'failing' as const,
      failing: [{ source: 'arxiv-q-bio', since: '2026-11-28T22:45:00Z', error: '无法连接（域名解析失败）' }],
      first_fetch: {
        sources: ['arxiv-cs'],
        started_at: '2026-11-28T22:45:00Z',
        expected_by: '2026-11-28T22:54:00Z',
        is_estimate: true,
      },
    };
    const explanation = { ...query.state.data.empty_explanation, sources };
    expect(refetchWhileSourcesStart({ state: { data: { empty_explanation: explanation } } })).toBe(
      SOURCES_STARTING_REFETCH_MS,
    );
  });
});
