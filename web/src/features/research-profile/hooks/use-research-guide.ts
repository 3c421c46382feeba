import { useCallback, useEffect, useState } from 'react';
import { dismissGuideForever, GUIDE_DELAY_MS, shouldOfferGuide, snoozeGuide } from '../utils/research-guide';

/**
 * The first-visit guide: opens 500 ms after the page loads when the profile has no
 * research info and the guide was not dismissed; closes by itself once research info exists.
 */
export function useResearchGuide(hasResearchProfile: boolean) {
  const [isOpen, setIsOpen] = useState(false);

  useEffect(() => {
    if (!shouldOfferGuide(hasResearchProfile)) {
      setIsOpen(false);
      return;
    }
    const timer = setTimeout(() => setIsOpen(true), GUIDE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [hasResearchProfile]);

  return {
    isOpen,
    /** 'Complete now' (the caller opens the dialog) and closing by Escape: nothing is stored. */
    close: useCallback(() => setIsOpen(false), []),
    remindLater: useCallback(() => {
      snoozeGuide();
      setIsOpen(false);
    }, []),
    neverRemind: useCallback(() => {
      dismissGuideForever();
      setIsOpen(false);
    }, []),
  };
}
