import Checkbox from '@mui/material/Checkbox';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import { DATE_FILTER_LABELS, type DateFilterLabel } from '@radar/shared';
import { useId } from 'react';
import { shownDateFilter } from '@/lib/recommendation-params';

const TEXT = {
  label: '发表时间',
  hint: '勾选某一时间范围时，更短的范围会一并勾选；“不限”与其他选项互斥。',
} as const;

type DateFilterCheckboxesProps = {
  selected: readonly DateFilterLabel[];
  /** The page applies its rule (cumulative, 不限 exclusive) and passes the new selection back in. */
  onToggle: (label: DateFilterLabel, checked: boolean) => void;
  label?: string;
  testId: string;
};

/** The date-filter checkboxes of the recommendation settings, one per range of DATE_FILTERS. */
export function DateFilterCheckboxes({ selected, onToggle, label = TEXT.label, testId }: DateFilterCheckboxesProps) {
  const hintId = useId();
  // The hint says shorter ranges are ticked with a longer one: the boxes show exactly that.
  const shown = shownDateFilter(selected);
  return (
    <FormControl component="fieldset" data-testid={testId} aria-describedby={hintId}>
      <FormLabel component="legend" sx={{ typography: 'subtitle2', color: 'text.primary', mb: 0.5 }}>
        {label}
      </FormLabel>
      <FormGroup row>
        {DATE_FILTER_LABELS.map((option) => (
          <FormControlLabel
            key={option}
            label={option}
            control={
              <Checkbox
                size="small"
                checked={shown.includes(option)}
                onChange={(event) => onToggle(option, event.target.checked)}
              />
            }
          />
        ))}
      </FormGroup>
      <FormHelperText id={hintId} sx={{ mx: 0 }}>
        {TEXT.hint}
      </FormHelperText>
    </FormControl>
  );
}
