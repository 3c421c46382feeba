import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { FOLLOWED_AUTHOR_LIMITS } from '@radar/shared';
import { useState } from 'react';
import { ExternalLink } from '@/components/links/external-link';
import type { PaperActions } from '@/hooks/use-paper-actions';
import { paperHref } from '@/lib/paper-display';
import { formatRelativeTime } from '@/lib/relative-time';
import type { ClientFollowedAuthorPaper } from '@/lib/spec-answers';
import { PAPERS_STRINGS as STRINGS } from '../strings';
import { PaperCardList } from './paper-card-list';

type FollowedAuthorsSectionProps = {
  papers: readonly ClientFollowedAuthorPaper[];
  /** Name-only matches sharing nothing with the paper the author was followed from (optional in the answer). */
  namesakes?: { count: number; papers: readonly ClientFollowedAuthorPaper[] } | undefined;
  actions: PaperActions;
};

/**
 * 关注的作者 above the recommendations. Capped so the recommendations still show on a phone's first
 * screen: the first FOLLOWED_AUTHOR_LIMITS.sectionFirstScreen papers as one-line entries (title, reason,
 * date), the others and the full cards behind 展开; possible namesakes (matched by name alone with
 * nothing in common with the paper followed from) folded into one line, 另有 N 篇同名作者的论文，展开.
 */
export function FollowedAuthorsSection({ papers, namesakes, actions }: FollowedAuthorsSectionProps) {
  const [isExpanded, setIsExpanded] = useState(false);
  const [showsNamesakes, setShowsNamesakes] = useState(false);
  const namesakeCount = namesakes?.count ?? 0;
  if (papers.length === 0 && namesakeCount === 0) return null;
  const first = papers.slice(0, FOLLOWED_AUTHOR_LIMITS.sectionFirstScreen);
  const hidden = papers.length - first.length;
  return (
    <Stack spacing={1.5} component="section" aria-labelledby="papers-followed-heading" data-testid="papers-followed">
      <Stack spacing={0.5}>
        <Typography variant="h5" component="h2" id="papers-followed-heading">
          {STRINGS.followed.heading}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {STRINGS.followed.hint}
        </Typography>
      </Stack>
      {isExpanded ? (
        <PaperCardList
          papers={papers.map((paper) => ({
            ...paper,
            reason: { text: STRINGS.followed.reason(paper.followed_authors) },
          }))}
          actions={actions}
          testId="papers-followed-list"
        />
      ) : (
        <CompactList papers={first} testId="papers-followed-list" />
      )}
      {papers.length > 0 && (hidden > 0 || !isExpanded) ? (
        <FoldLine
          label={isExpanded ? STRINGS.followed.collapse : STRINGS.followed.expand(hidden)}
          onClick={() => setIsExpanded((value) => !value)}
          testId="papers-followed-expand"
        />
      ) : null}
      {namesakeCount > 0 ? (
        <>
          <FoldLine
            label={showsNamesakes ? STRINGS.followed.hideNamesakes : STRINGS.followed.namesakes(namesakeCount)}
            onClick={() => setShowsNamesakes((value) => !value)}
            testId="papers-followed-namesakes"
          />
          {showsNamesakes ? (
            <CompactList papers={namesakes?.papers ?? []} testId="papers-followed-namesakes-list" />
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}

function FoldLine({ label, onClick, testId }: { label: string; onClick: () => void; testId: string }) {
  return (
    <Button
      size="small"
      variant="text"
      onClick={onClick}
      data-testid={testId}
      sx={{ alignSelf: 'flex-start', px: 0, minWidth: 0 }}
    >
      {label}
    </Button>
  );
}

/** One line per paper: the title (its link), then who it is by and when, in small print. */
function CompactList({ papers, testId }: { papers: readonly ClientFollowedAuthorPaper[]; testId: string }) {
  return (
    <Stack component="ul" spacing={1} sx={{ listStyle: 'none', m: 0, p: 0 }} data-testid={testId}>
      {papers.map((paper) => {
        const href = paperHref(paper);
        const when = paper.date ? formatRelativeTime(paper.date) : null;
        return (
          <li key={paper.id}>
            <Typography
              component="h3"
              variant="body1"
              sx={{ fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
            >
              {href ? (
                <ExternalLink href={href} underline="hover" color="inherit">
                  {paper.title}
                </ExternalLink>
              ) : (
                paper.title
              )}
            </Typography>
            <Typography variant="caption" color="text.secondary" component="p">
              <span>{STRINGS.followed.reason(paper.followed_authors)}</span>
              {when ? <span>{` · ${when}`}</span> : null}
            </Typography>
          </li>
        );
      })}
    </Stack>
  );
}
