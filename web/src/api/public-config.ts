import { API_PATHS } from '@radar/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

/**
 * The installation's public settings, read at run time (GET /api/config/, not in the spec): the
 * operator changes them on the server without rebuilding the web app. Several features read them, so
 * the call lives here.
 */
export type PublicConfig = {
  /** The published support address; null when there is none (or the server does not say). */
  supportEmail: string | null;
  /** The readers' IANA time zone; null when the server does not say. */
  timeZone: string | null;
  /** The calls beyond the spec the server names (`citation_export`); empty when it names none. */
  features: readonly string[];
  /**
   * Which ways of seeding the profile from one's own works the server offers (beyond the spec): all
   * false when the server does not say, so the options stay hidden.
   */
  ownWorks: { orcid: boolean; openalex: boolean; library: boolean };
};

const PUBLIC_CONFIG_QUERY_KEY = ['public-config'] as const;

/**
 * Read defensively: a backend that answers only what the spec describes has no such call, and one
 * that has it may leave fields out. Anything missing is null.
 */
function toPublicConfig(raw: unknown): PublicConfig {
  const record = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
  const features = Array.isArray(record.features)
    ? record.features.filter((item): item is string => typeof item === 'string')
    : [];
  const ownWorks =
    typeof record.own_works === 'object' && record.own_works !== null
      ? (record.own_works as Record<string, unknown>)
      : {};
  return {
    supportEmail: text(record.support_email),
    timeZone: text(record.time_zone),
    features,
    ownWorks: {
      orcid: ownWorks.orcid === true,
      openalex: ownWorks.openalex === true,
      library: ownWorks.library === true,
    },
  };
}

async function getPublicConfig(options: { signal?: AbortSignal } = {}): Promise<PublicConfig> {
  return toPublicConfig(await api.get<unknown>(API_PATHS.publicConfig, options));
}

export const publicConfigQueryOptions = () =>
  queryOptions({
    queryKey: PUBLIC_CONFIG_QUERY_KEY,
    queryFn: ({ signal }) => getPublicConfig({ signal }),
    // Settings change only when the server restarts.
    staleTime: 5 * 60_000,
  });

export function usePublicConfig() {
  return useQuery(publicConfigQueryOptions());
}

/**
 * Whether the server exports citation files (GET /articles/{id}/export/ and /articles/library/export/,
 * beyond the spec): false until /api/config/ says so, and for a backend without that call.
 */
export function useCanExportCitations(): boolean {
  const config = usePublicConfig();
  return config.data?.features.includes('citation_export') ?? false;
}
