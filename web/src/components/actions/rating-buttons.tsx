import ThumbDownAltIcon from '@mui/icons-material/ThumbDownAlt';
import ThumbDownOffAltIcon from '@mui/icons-material/ThumbDownOffAlt';
import ThumbUpAltIcon from '@mui/icons-material/ThumbUpAlt';
import ThumbUpOffAltIcon from '@mui/icons-material/ThumbUpOffAlt';
import { LEARNING_TEXTS } from '@radar/shared';
import { ActionIconButton } from './action-icon-button';

/**
 * 👍 更多此类 and 👎 减少此类 of a card, toggles (pressed = the reader's rating). The card shows them only
 * when its item carries `rating` (null or a value): a backend without ratings leaves the field out.
 */
export function RatingButtons(props: {
  rating: 1 | -1 | null;
  disabled: boolean;
  /** 'paper' or 'news': the test ids' prefix. */
  testIdPrefix: string;
  onRate: (pressed: 1 | -1) => void;
  size?: 'small' | 'medium';
}) {
  const fontSize = props.size === 'small' ? 'small' : 'medium';
  return (
    <>
      <ActionIconButton
        label={LEARNING_TEXTS.rateUp}
        pressed={props.rating === 1}
        disabled={props.disabled}
        testId={`${props.testIdPrefix}-rate-up`}
        onClick={() => props.onRate(1)}
        size={props.size}
        icon={
          props.rating === 1 ? (
            <ThumbUpAltIcon color="primary" fontSize={fontSize} />
          ) : (
            <ThumbUpOffAltIcon fontSize={fontSize} />
          )
        }
      />
      <ActionIconButton
        label={LEARNING_TEXTS.rateDown}
        pressed={props.rating === -1}
        disabled={props.disabled}
        testId={`${props.testIdPrefix}-rate-down`}
        onClick={() => props.onRate(-1)}
        size={props.size}
        icon={
          props.rating === -1 ? (
            <ThumbDownAltIcon color="warning" fontSize={fontSize} />
          ) : (
            <ThumbDownOffAltIcon fontSize={fontSize} />
          )
        }
      />
    </>
  );
}
