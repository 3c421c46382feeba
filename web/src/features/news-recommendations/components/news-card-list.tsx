import Stack from '@mui/material/Stack';
import { NewsCard, type NewsCardItem } from '@/components/news/news-card';
import { useStagedList } from '@/hooks/use-staged-list';

const LIST_SX = { listStyle: 'none', m: 0, p: 0 } as const;

/**
 * The cards of /news with 👍/👎 and 不感兴趣. The first cards paint before the rest render
 * (hooks/use-staged-list); `data-complete` says when all are in.
 */
export function NewsCardList<I extends NewsCardItem>(props: {
  items: readonly I[];
  onDismiss: (item: NewsCardItem) => void;
  onRate: (item: NewsCardItem, pressed: 1 | -1) => void;
  isBusy: (id: string) => boolean;
}) {
  const { shown, isComplete } = useStagedList(props.items);
  return (
    <Stack
      component="ul"
      spacing={2}
      sx={LIST_SX}
      data-testid="news-list"
      data-complete={isComplete ? 'true' : 'false'}
    >
      {shown.map((item) => (
        <li key={item.id}>
          <NewsCard item={item} onDismiss={props.onDismiss} onRate={props.onRate} isBusy={props.isBusy(item.id)} />
        </li>
      ))}
    </Stack>
  );
}
