import type { PublicConfigResponse } from '@radar/shared';
import type { AppConfig } from '@radar/shared/server';

/** The settings the web app reads at run time; only what every visitor may see. */
export function publicConfigOf(
  config: Pick<AppConfig, 'supportEmail' | 'timeZone'> & { ingest?: Pick<AppConfig['ingest'], 'openAlexApiKey'> },
): PublicConfigResponse {
  return {
    support_email: config.supportEmail ?? null,
    time_zone: config.timeZone,
    features: ['citation_export', 'followed_authors'],
    own_works: { orcid: true, openalex: Boolean(config.ingest?.openAlexApiKey), library: true },
  };
}
