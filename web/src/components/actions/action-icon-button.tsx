import IconButton from '@mui/material/IconButton';
import type { ReactNode } from 'react';
import { HoverTooltip } from './hover-tooltip';

/** A card's icon button, named by its tooltip and aria-label; `pressed` for toggles. */
export function ActionIconButton(props: {
  label: string;
  pressed?: boolean;
  disabled: boolean;
  testId: string;
  icon: ReactNode;
  onClick: () => void;
  size?: 'small' | 'medium';
}) {
  const button = (
    <IconButton
      aria-label={props.label}
      aria-pressed={props.pressed}
      disabled={props.disabled}
      data-testid={props.testId}
      onClick={props.onClick}
      size={props.size}
    >
      {props.icon}
    </IconButton>
  );
  // A disabled button fires no events, so the tooltip listens on a wrapper.
  return <HoverTooltip title={props.label}>{button}</HoverTooltip>;
}
