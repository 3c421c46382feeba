import Tooltip from '@mui/material/Tooltip';
import { type ReactNode, useEffect, useRef, useState } from 'react';

/** MUI's default wait before a tooltip shows on hover. */
const ENTER_DELAY_MS = 100;

function isFocusVisible(element: EventTarget): boolean {
  try {
    return element instanceof Element && element.matches(':focus-visible');
  } catch {
    // An engine without the selector (older browsers, test DOMs) shows no tooltip on focus.
    return false;
  }
}

/**
 * A card button's tooltip, shown on mouse hover (not on a tap) and on keyboard focus of anything inside
 * (a disabled button too: the wrapping span listens). MUI's Tooltip is mounted at the first showing and stays: a
 * list of 20 cards has about 120 of these, and a closed MUI Tooltip still renders its popper's styles,
 * which was a good part of rendering a card. Its popper is anchored to this span, so the wrapped button
 * never remounts (a click in progress keeps its target).
 */
export function HoverTooltip({ title, children }: { title: string; children: ReactNode }) {
  const anchor = useRef<HTMLSpanElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const [isOpen, setOpen] = useState(false);
  const [hasOpened, setHasOpened] = useState(false);
  useEffect(() => () => window.clearTimeout(timer.current), []);
  const show = () => {
    window.clearTimeout(timer.current);
    setHasOpened(true);
    setOpen(true);
  };
  const hide = () => {
    window.clearTimeout(timer.current);
    setOpen(false);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a wrapper that only watches hover and focus; the button inside has the role and the name
    <span
      ref={anchor}
      onPointerEnter={(event) => {
        // A tap also sends a pointer and then mouse events: only a mouse hovers.
        if (event.pointerType !== 'mouse') return;
        window.clearTimeout(timer.current);
        timer.current = window.setTimeout(show, ENTER_DELAY_MS);
      }}
      onPointerLeave={hide}
      onFocus={(event) => {
        if (isFocusVisible(event.target)) show();
      }}
      onBlur={hide}
    >
      {children}
      {hasOpened ? (
        <Tooltip
          title={title}
          open={isOpen}
          onClose={hide}
          slotProps={{ popper: { anchorEl: () => anchor.current as HTMLSpanElement } }}
        >
          <span hidden />
        </Tooltip>
      ) : null}
    </span>
  );
}
