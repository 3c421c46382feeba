import DismissIcon from '@mui/icons-material/NotInterested';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Typography from '@mui/material/Typography';
import { LEARNING_TEXTS } from '@radar/shared';
import type { ElementType } from 'react';
import { ActionIconButton } from '@/components/actions/action-icon-button';
import { RatingButtons } from '@/components/actions/rating-buttons';
import { ExternalLink } from '@/components/links/external-link';
import { RecommendationReasonLine } from '@/components/recommendations/recommendation-reason-line';
import { formatSimilarityPercent } from '@/lib/paper-display';
import { formatAbsoluteDate, formatRelativeTime } from '@/lib/relative-time';
import { truncateText } from '@/lib/text';

const TEXT = {
  recommended: '推荐',
  institute: '发布机构',
  crawled: '收录时间',
  published: '发布时间',
  similarity: '相似度',
} as const;

/** Content length on the news page. */
const NEWS_CONTENT_MAX_LENGTH = 300;

/** The fields a card shows; the NewsItem of every news endpoint fits. */
export type NewsCardItem = {
  id: string;
  title: string;
  content: string;
  institute_name: string;
  crawl_date: string;
  /** When the source published it; absent or null when the source did not say. */
  publish_date?: string | null;
  url: string;
  is_recommended: boolean;
  recommendation_score?: number | null;
  similarity_score?: number | null;
  /** Why it is recommended; null in search results. */
  reason?: { text: string } | null;
  /** The reader's interest it serves (recommendations with several interests only). */
  interest?: { name: string } | undefined;
  /** The reader's rating (not in the spec: absent from spec-only answers, and then 👍/👎 are hidden). */
  rating?: 1 | -1 | null;
};

type NewsCardProps = {
  item: NewsCardItem;
  /** Characters of content before the ellipsis; 300 on the news page. */
  contentMaxLength?: number;
  /** Characters of title before the ellipsis; the whole title when left out. */
  titleMaxLength?: number;
  titleComponent?: ElementType;
  /** 'Not interested' (recommendations only); the button appears only with it. */
  onDismiss?: (item: NewsCardItem) => void;
  /** 👍 (1) or 👎 (-1) clicked; the buttons appear when the item carries `rating`. */
  onRate?: (item: NewsCardItem, pressed: 1 | -1) => void;
  /** Disables the button while a request for this item is under way. */
  isBusy?: boolean;
  /** "Now" for the relative time; tests pin it. */
  now?: Date;
};

/**
 * One news item: the title opens the source in a new tab, a 推荐 badge for
 * recommended items, the content truncated with an ellipsis, chips for the institute, the relative
 * crawl date and the similarity (no decimals), and why it is recommended when the item says.
 */
export function NewsCard({
  item,
  contentMaxLength = NEWS_CONTENT_MAX_LENGTH,
  titleMaxLength,
  titleComponent = 'h3',
  onDismiss,
  onRate,
  isBusy = false,
  now,
}: NewsCardProps) {
  const similarity = formatSimilarityPercent(item.recommendation_score ?? item.similarity_score, 0);
  const title = titleMaxLength === undefined ? item.title : truncateText(item.title, titleMaxLength);
  const content = truncateText(item.content.trim(), contentMaxLength);
  const reason = item.reason?.text.trim() ?? '';
  const interestName = item.interest?.name.trim() ?? '';

  return (
    <Card component="article" variant="outlined" data-testid="news-card" data-news-id={item.id}>
      <CardContent sx={{ p: { xs: 2, md: 2.5 }, '&:last-child': { pb: { xs: 2, md: 2.5 } } }}>
        <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1 }}>
          <Typography
            component={titleComponent}
            variant="h6"
            sx={{ flex: 1, minWidth: 0, lineHeight: 1.4, overflowWrap: 'anywhere' }}
          >
            {item.url.trim() ? (
              <ExternalLink
                href={item.url}
                underline="hover"
                color="inherit"
                title={title === item.title ? undefined : item.title}
                data-testid="news-card-title"
              >
                {title}
              </ExternalLink>
            ) : (
              // An item without a link: a link would lead nowhere.
              <span title={title === item.title ? undefined : item.title} data-testid="news-card-title">
                {title}
              </span>
            )}
          </Typography>
          {item.is_recommended ? (
            <Chip
              size="small"
              color="success"
              label={TEXT.recommended}
              data-testid="news-card-recommended"
              sx={{ flexShrink: 0 }}
            />
          ) : null}
          {onDismiss || (onRate && item.rating !== undefined) ? (
            <Box sx={{ flexShrink: 0, mt: -0.5, mr: -1, display: 'flex' }}>
              {onRate && item.rating !== undefined ? (
                <RatingButtons
                  rating={item.rating}
                  disabled={isBusy}
                  testIdPrefix="news"
                  size="small"
                  onRate={(pressed) => onRate(item, pressed)}
                />
              ) : null}
              {onDismiss ? (
                <ActionIconButton
                  label={LEARNING_TEXTS.dismiss}
                  disabled={isBusy}
                  testId="news-not-interested"
                  onClick={() => onDismiss(item)}
                  icon={<DismissIcon fontSize="small" />}
                  size="small"
                />
              ) : null}
            </Box>
          ) : null}
        </Box>
        {content ? (
          <Typography
            variant="body2"
            color="text.secondary"
            data-testid="news-card-content"
            sx={{ mt: 1.5, overflowWrap: 'anywhere', whiteSpace: 'pre-line' }}
          >
            {content}
          </Typography>
        ) : null}
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
          {item.institute_name.trim() ? (
            <Chip
              size="small"
              variant="outlined"
              label={item.institute_name}
              title={`${TEXT.institute}：${item.institute_name}`}
              data-testid="news-chip-institute"
              sx={{ maxWidth: '100%' }}
            />
          ) : null}
          <Chip
            size="small"
            variant="outlined"
            label={formatRelativeTime(item.crawl_date, now)}
            title={dateTooltip(item, now)}
            data-testid="news-chip-date"
          />
          {similarity ? (
            <Chip
              size="small"
              variant="outlined"
              color="primary"
              label={`${TEXT.similarity} ${similarity}`}
              data-testid="news-chip-similarity"
            />
          ) : null}
          {interestName ? (
            <Chip size="small" variant="outlined" label={`兴趣：${interestName}`} data-testid="news-chip-interest" />
          ) : null}
        </Box>
        {reason ? <RecommendationReasonLine text={reason} testId="news-card-reason" /> : null}
      </CardContent>
    </Card>
  );
}

/**
 * The date chip's hover text: the chip shows when the item was crawled, relative (今天 for old news crawled
 * today), so the tooltip gives that day absolutely and, when the source said, the publication date, both
 * in the readers' zone; a date that cannot be read is named as undated rather than left out.
 */
function dateTooltip(item: NewsCardItem, now: Date | undefined): string {
  const crawled = `${TEXT.crawled}：${formatAbsoluteDate(item.crawl_date) ?? formatRelativeTime(item.crawl_date, now)}`;
  const published = formatAbsoluteDate(item.publish_date);
  return published ? `${crawled}\n${TEXT.published}：${published}` : crawled;
}
