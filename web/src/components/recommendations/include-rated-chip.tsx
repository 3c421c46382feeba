import CheckRounded from '@mui/icons-material/CheckRounded';
import Chip from '@mui/material/Chip';
import Tooltip from '@mui/material/Tooltip';

type IncludeRatedChipProps = {
  label: string;
  /** What the chip does, in the tooltip. */
  hint: string;
  isOn: boolean;
  onToggle: (isOn: boolean) => void;
  testId: string;
};

/**
 * The chip 含已评价 beside a recommendation list's filters (beyond the spec): a toggle (aria-pressed)
 * that keeps the items the reader rated 👍 in the list (include_rated=true); off, they leave it on the
 * next visit after the rating.
 */
export function IncludeRatedChip({ label, hint, isOn, onToggle, testId }: IncludeRatedChipProps) {
  return (
    <Tooltip title={hint} describeChild>
      <Chip
        size="small"
        label={label}
        icon={isOn ? <CheckRounded /> : undefined}
        color={isOn ? 'primary' : 'default'}
        variant={isOn ? 'filled' : 'outlined'}
        onClick={() => onToggle(!isOn)}
        aria-pressed={isOn}
        data-testid={testId}
      />
    </Tooltip>
  );
}
