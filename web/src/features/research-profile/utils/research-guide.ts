/** localStorage key of 'never remind'. */
export const GUIDE_DISMISSED_KEY = 'research-guide-dismissed';
/** sessionStorage key of 'remind later': hidden until the browser tab is closed. */
const GUIDE_SNOOZED_KEY = 'research-guide-snoozed';
/** The guide appears this long after the page loads. */
export const GUIDE_DELAY_MS = 500;

type GuideStorage = { local: Storage | null; session: Storage | null };

/** The browser's storages, or null where they do not exist or are blocked (private modes). */
function getGuideStorage(): GuideStorage {
  const read = (name: 'localStorage' | 'sessionStorage') => {
    try {
      return globalThis[name] ?? null;
    } catch {
      return null;
    }
  };
  return { local: read('localStorage'), session: read('sessionStorage') };
}

export function isGuideDismissed({ local, session }: GuideStorage = getGuideStorage()): boolean {
  return local?.getItem(GUIDE_DISMISSED_KEY) === 'true' || session?.getItem(GUIDE_SNOOZED_KEY) === 'true';
}

/** 'Remind later': not again in this browser session. */
export function snoozeGuide({ session }: GuideStorage = getGuideStorage()): void {
  session?.setItem(GUIDE_SNOOZED_KEY, 'true');
}

/** 'Never remind': kept across sessions. */
export function dismissGuideForever({ local }: GuideStorage = getGuideStorage()): void {
  local?.setItem(GUIDE_DISMISSED_KEY, 'true');
}

/** The guide is offered when the profile has no research info and it was not dismissed. */
export function shouldOfferGuide(hasResearchProfile: boolean, storage: GuideStorage = getGuideStorage()): boolean {
  return !hasResearchProfile && !isGuideDismissed(storage);
}
