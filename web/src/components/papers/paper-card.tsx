import BookmarkIcon from '@mui/icons-material/Bookmark';
import BookmarkBorderIcon from '@mui/icons-material/BookmarkBorder';
import FavoriteIcon from '@mui/icons-material/Favorite';
import FavoriteBorderIcon from '@mui/icons-material/FavoriteBorder';
import DismissIcon from '@mui/icons-material/NotInterested';
import ShareOutlinedIcon from '@mui/icons-material/ShareOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import { alpha } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { type CitationFormat, LEARNING_TEXTS } from '@radar/shared';
import type { ElementType, ReactNode } from 'react';
import { ActionIconButton } from '@/components/actions/action-icon-button';
import { RatingButtons } from '@/components/actions/rating-buttons';
import { ExternalLink } from '@/components/links/external-link';
import { RecommendationReasonLine } from '@/components/recommendations/recommendation-reason-line';
import {
  type AuthorEntry,
  authorName,
  describeTierSource,
  formatJcrTier,
  formatSimilarityPercent,
  lastAuthor,
  paperHref,
} from '@/lib/paper-display';
import { formatAbsoluteDate, formatRelativeTime } from '@/lib/relative-time';
import { type AuthorFollowControls, AuthorFollowMenu } from './author-follow-menu';
import { CitationExportMenu } from './citation-export-menu';

const TEXT = {
  noAbstract: '暂无摘要',
  aiSummary: 'AI 摘要',
  journal: '期刊',
  lastAuthor: '末位作者',
  published: '发表时间',
  similarity: '相似度',
  favorite: '收藏',
  save: '稍后阅读',
  share: '分享',
  preprint: '预印本',
  export: '导出',
  publishedVersion: (journal: string) => `已正式发表：${journal}`,
} as const;

/** The fields a card shows; the Paper of every endpoint fits (authors may also be `{ name }` objects). */
export type PaperCardPaper = {
  id: string;
  title: string;
  /** The paper's page; absent or '' when the answer gives only the DOI (the title links that instead). */
  url?: string | null;
  doi?: string | null;
  /** The preprint's page when `url` is the journal version (not in the spec: absent from spec-only answers). */
  preprint_url?: string | null;
  authors: readonly AuthorEntry[];
  abstract: string | null;
  journal: string | null;
  jcr: number | null;
  /** Which system the tier comes from and its year (optional: absent from spec-only answers). */
  jcr_source?: string | null;
  jcr_year?: number | null;
  date: string | null;
  year?: number | null;
  llm_summary?: string | null;
  is_favorited?: boolean;
  is_saved?: boolean;
  /** The reader's rating (not in the spec: absent from spec-only answers, and then 👍/👎 are hidden). */
  rating?: 1 | -1 | null;
  /** Why it is recommended (recommendations only). */
  reason?: { text: string } | null;
  /**
   * The journal version of a preprint the reader favourited or saved, arrived since (not in the spec:
   * absent from spec-only answers).
   */
  published_version?: { journal: string; doi: string | null; url: string } | null;
  /** The reader's interest it serves (recommendations with several interests only). */
  interest?: { name: string } | undefined;
  /** Why the LLM placed it there (only with the operator's LLM rerank on). */
  rerank_reason?: string | undefined;
};

type PaperCardProps = {
  paper: PaperCardPaper;
  /** Similarity 0-1; shown as a percentage with one decimal when given. */
  score?: number | null;
  /** Each action button appears only when its handler is given. */
  onToggleFavorite?: (paper: PaperCardPaper) => void;
  onToggleSave?: (paper: PaperCardPaper) => void;
  onShare?: (paper: PaperCardPaper) => void;
  /** 'Not interested' (recommendations only). */
  onDismiss?: (paper: PaperCardPaper) => void;
  /** 导出 (BibTeX, RIS, CSL-JSON); given only when the server exports citation files. */
  onExport?: (paper: PaperCardPaper, format: CitationFormat) => void;
  /** 👍 (1) or 👎 (-1) clicked; the buttons appear when the paper carries `rating`. */
  onRate?: (paper: PaperCardPaper, pressed: 1 | -1) => void;
  /** The author list with 关注该作者 / 取消关注 (only when the server keeps followed authors). */
  authorFollow?: {
    isFollowed: (name: string) => boolean;
    onToggle: (paper: PaperCardPaper, index: number, name: string) => void;
    disabled?: boolean;
  };
  /** Disables the action buttons, e.g. while a request for this paper is under way. */
  isBusy?: boolean;
  /** Heading element of the title; h3 below a page h1 and a list h2. */
  titleComponent?: ElementType;
  /** Extra content under the chips (e.g. a reading-progress bar). */
  footer?: ReactNode;
  /** "Now" for the relative time; tests pin it. */
  now?: Date;
};

/**
 * One paper: the title links to the paper in a new tab, then the AI
 * summary, the abstract clamped to 3 lines, chips for journal, JCR tier, last author, relative time
 * and similarity, the preprint's link of a journal version (when the answer has `preprint_url`), and why
 * it is recommended when the paper says. Knows nothing about where its data or
 * actions come from.
 */
export function PaperCard({
  paper,
  score,
  onToggleFavorite,
  onToggleSave,
  onShare,
  onDismiss,
  onExport,
  onRate,
  authorFollow,
  isBusy = false,
  titleComponent = 'h3',
  footer,
  now,
}: PaperCardProps) {
  const jcr = formatJcrTier(paper.jcr);
  const tierSource = describeTierSource(paper.jcr_source, paper.jcr_year);
  const similarity = formatSimilarityPercent(score, 1);
  const abstract = paper.abstract?.trim() ?? '';
  const summary = paper.llm_summary?.trim() ?? '';
  const canRate = Boolean(onRate) && paper.rating !== undefined;
  const hasActions = Boolean(onToggleFavorite || onToggleSave || onShare || onDismiss || onExport || canRate);
  const publishedVersion = paper.published_version?.journal.trim() ? paper.published_version : null;
  const reason = paper.reason?.text.trim() ?? '';
  const interestName = paper.interest?.name.trim() ?? '';
  const rerankReason = paper.rerank_reason?.trim() ?? '';
  const isFavorited = Boolean(paper.is_favorited);
  const isSaved = Boolean(paper.is_saved);
  const href = paperHref(paper);
  const preprintHref = paper.preprint_url?.trim() ?? '';
  const authorControls: AuthorFollowControls | undefined = authorFollow
    ? {
        isFollowed: authorFollow.isFollowed,
        onToggle: (index, name) => authorFollow.onToggle(paper, index, name),
        disabled: authorFollow.disabled,
      }
    : undefined;

  return (
    <Card component="article" data-testid="paper-card" data-paper-id={paper.id} variant="outlined">
      <CardContent
        sx={{
          p: { xs: 2, md: 2.5 },
          '&:last-child': { pb: { xs: 2, md: 2.5 } },
          display: 'grid',
          columnGap: 1,
          // Phones: the buttons go under the chips so the title keeps the full width.
          gridTemplateColumns: hasActions ? { xs: 'minmax(0, 1fr)', sm: 'minmax(0, 1fr) auto' } : 'minmax(0, 1fr)',
          gridTemplateAreas: hasActions
            ? { xs: '"title" "body" "actions"', sm: '"title actions" "body body"' }
            : '"title" "body"',
        }}
      >
        <Typography
          component={titleComponent}
          variant="h6"
          sx={{ gridArea: 'title', minWidth: 0, lineHeight: 1.4, overflowWrap: 'anywhere' }}
        >
          {href ? (
            <ExternalLink href={href} underline="hover" color="inherit" data-testid="paper-card-title">
              {paper.title}
            </ExternalLink>
          ) : (
            // Neither a page nor a DOI: a link would lead nowhere.
            <span data-testid="paper-card-title">{paper.title}</span>
          )}
        </Typography>
        <Box sx={{ gridArea: 'body', minWidth: 0 }}>
          {summary ? (
            <Box
              data-testid="paper-card-summary"
              sx={{
                mt: 1.5,
                px: 1.5,
                py: 1,
                borderRadius: 1,
                bgcolor: (theme) => alpha(theme.palette.primary.main, 0.06),
                borderLeft: 3,
                borderColor: 'primary.main',
              }}
            >
              <Typography variant="caption" color="primary" sx={{ fontWeight: 600 }}>
                {TEXT.aiSummary}
              </Typography>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {summary}
              </Typography>
            </Box>
          ) : null}

          <Typography
            variant="body2"
            color={abstract ? 'text.secondary' : 'text.disabled'}
            data-testid="paper-card-abstract"
            sx={{
              mt: 1.5,
              display: '-webkit-box',
              WebkitLineClamp: 3,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            }}
          >
            {abstract || TEXT.noAbstract}
          </Typography>

          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mt: 2 }}>
            {paper.journal?.trim() ? (
              <InfoChip label={paper.journal} title={TEXT.journal} testId="paper-chip-journal" />
            ) : null}
            {jcr ? (
              <InfoChip label={jcr} title={tierSource ?? undefined} testId="paper-chip-jcr" color="secondary" />
            ) : null}
            <InfoChip label={lastAuthor(paper.authors)} title={TEXT.lastAuthor} testId="paper-chip-author" />
            {authorControls ? (
              <AuthorFollowMenu
                authors={paper.authors.map(authorName)}
                controls={authorControls}
                testId="paper-authors-follow"
              />
            ) : null}
            <InfoChip
              label={formatRelativeTime(paper.date ?? paper.year, now)}
              title={TEXT.published}
              // The tooltip names the day itself: a relative label alone never says which day it means.
              titleValue={formatAbsoluteDate(paper.date ?? paper.year)}
              testId="paper-chip-date"
            />
            {similarity ? (
              <InfoChip label={`${TEXT.similarity} ${similarity}`} testId="paper-chip-similarity" color="primary" />
            ) : null}
            {interestName ? <InfoChip label={`兴趣：${interestName}`} testId="paper-chip-interest" /> : null}
            {preprintHref && preprintHref !== href ? (
              // The journal version is the title's link; its preprint (arXiv, bioRxiv ...) is the second.
              <ExternalLink
                href={preprintHref}
                variant="body2"
                underline="hover"
                data-testid="paper-card-preprint-link"
                sx={{ alignSelf: 'center' }}
              >
                {TEXT.preprint}
              </ExternalLink>
            ) : null}
          </Box>
          {publishedVersion ? (
            <Typography variant="body2" color="success.main" sx={{ mt: 1.5 }} data-testid="paper-card-published">
              {TEXT.publishedVersion(publishedVersion.journal)}
              {publishedVersion.doi || publishedVersion.url ? (
                <>
                  {'（'}
                  <ExternalLink href={publishedVersion.url} underline="hover" data-testid="paper-card-published-link">
                    {publishedVersion.doi ? `DOI: ${publishedVersion.doi}` : publishedVersion.url}
                  </ExternalLink>
                  {'）'}
                </>
              ) : null}
            </Typography>
          ) : null}
          {reason ? <RecommendationReasonLine text={reason} testId="paper-card-reason" /> : null}
          {rerankReason ? (
            <RecommendationReasonLine text={`AI 排序：${rerankReason}`} testId="paper-card-rerank-reason" />
          ) : null}
          {footer}
        </Box>
        {hasActions ? (
          <Box sx={{ gridArea: 'actions', display: 'flex', justifySelf: 'end', mt: { xs: 1, sm: -0.5 }, mr: -1 }}>
            {onRate && canRate ? (
              <RatingButtons
                rating={paper.rating ?? null}
                disabled={isBusy}
                testIdPrefix="paper"
                onRate={(pressed) => onRate(paper, pressed)}
              />
            ) : null}
            {onToggleFavorite ? (
              <ActionIconButton
                label={TEXT.favorite}
                pressed={isFavorited}
                disabled={isBusy}
                testId="paper-favorite"
                onClick={() => onToggleFavorite(paper)}
                icon={isFavorited ? <FavoriteIcon color="error" /> : <FavoriteBorderIcon />}
              />
            ) : null}
            {onToggleSave ? (
              <ActionIconButton
                label={TEXT.save}
                pressed={isSaved}
                disabled={isBusy}
                testId="paper-save"
                onClick={() => onToggleSave(paper)}
                icon={isSaved ? <BookmarkIcon color="primary" /> : <BookmarkBorderIcon />}
              />
            ) : null}
            {onShare ? (
              <ActionIconButton
                label={TEXT.share}
                disabled={isBusy}
                testId="paper-share"
                onClick={() => onShare(paper)}
                icon={<ShareOutlinedIcon />}
              />
            ) : null}
            {onExport ? (
              <CitationExportMenu
                label={TEXT.export}
                variant="icon"
                disabled={isBusy}
                testId="paper-export"
                onSelect={(format) => onExport(paper, format)}
              />
            ) : null}
            {onDismiss ? (
              <ActionIconButton
                label={LEARNING_TEXTS.dismiss}
                disabled={isBusy}
                testId="paper-not-interested"
                onClick={() => onDismiss(paper)}
                icon={<DismissIcon />}
              />
            ) : null}
          </Box>
        ) : null}
      </CardContent>
    </Card>
  );
}

function InfoChip(props: {
  label: string;
  testId: string;
  /** The chip's meaning, read by screen readers and shown on hover. */
  title?: string;
  /** What the hover text gives after the meaning; the label when left out. */
  titleValue?: string | undefined;
  color?: 'default' | 'primary' | 'secondary';
}) {
  return (
    <Chip
      size="small"
      variant="outlined"
      color={props.color ?? 'default'}
      label={props.label}
      title={props.title ? `${props.title}：${props.titleValue ?? props.label}` : undefined}
      data-testid={props.testId}
      sx={{ maxWidth: '100%' }}
    />
  );
}
