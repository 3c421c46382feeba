import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import type { ReactNode } from 'react';

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
  // A disabled button fires no events, so the tooltip needs a wrapper to listen on.
  return (
    <Tooltip title={props.label}>
      <span>{button}</span>
    </Tooltip>
  );
}
