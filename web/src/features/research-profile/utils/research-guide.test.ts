import { describe, expect, it } from 'vitest';
import {
  dismissGuideForever,
  GUIDE_DELAY_MS,
  GUIDE_DISMISSED_KEY,
  isGuideDismissed,
  shouldOfferGuide,
  snoozeGuide,
} from './research-guide';

/** A Storage over a Map: Node has no localStorage; the functions only use getItem and setItem. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => {
      items.delete(key);
    },
    setItem: (key, value) => {
      items.set(key, String(value));
    },
  };
}

const storages = () => ({ local: memoryStorage(), session: memoryStorage() });

describe('the first-visit guide', () => {
  it('is offered after 500 ms when there is no research info and it was not dismissed', () => {
    expect(GUIDE_DELAY_MS).toBe(500);
    expect(shouldOfferGuide(false, storages())).toBe(true);
    expect(shouldOfferGuide(true, storages())).toBe(false);
  });

  it("'remind later' hides it for the browser session only", () => {
    const storage = storages();
    snoozeGuide(storage);
    expect(isGuideDismissed(storage)).toBe(true);
    expect(storage.local.length).toBe(0);
    expect(shouldOfferGuide(false, { ...storage, session: memoryStorage() })).toBe(true);
  });

  it("'never remind' persists in localStorage under research-guide-dismissed", () => {
    const storage = storages();
    dismissGuideForever(storage);
    expect(storage.local.getItem(GUIDE_DISMISSED_KEY)).toBe('true');
    expect(GUIDE_DISMISSED_KEY).toBe('research-guide-dismissed');
    expect(shouldOfferGuide(false, { ...storage, session: memoryStorage() })).toBe(false);
  });

  it('is offered when storage is unavailable (nothing can have been dismissed)', () => {
    expect(shouldOfferGuide(false, { local: null, session: null })).toBe(true);
    snoozeGuide({ local: null, session: null });
    dismissGuideForever({ local: null, session: null });
  });
});
