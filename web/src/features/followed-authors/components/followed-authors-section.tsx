import PeopleAltOutlined from '@mui/icons-material/PeopleAltOutlined';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import { useAuthorFollowing } from '@/api/followed-authors';
import { SectionCard } from '@/components/sections/section-card';

const TEXT = {
  title: '关注的作者',
  description: '关注的作者发表新论文时，会出现在“论文推荐”顶部，也会写进关键词提醒邮件。',
  empty: '还没有关注的作者。在任意论文卡片上点“作者”，即可关注其中一位。',
  loadFailed: '关注的作者暂时无法加载，请稍后刷新页面',
  count: (count: number, max: number) => `已关注 ${count} / ${max} 位`,
  unfollow: '取消关注',
  nameOnly: '仅按姓名识别，可能包含同名作者的论文',
  identified: (parts: string[]) => parts.join(' · '),
} as const;

/**
 * /my: the authors the reader follows, with 取消关注 (beyond the spec; left out when the server does not
 * keep followed authors). How each one is recognised is said under the name: ORCID, OpenAlex, the
 * affiliation, or the name alone (possibly namesakes).
 */
export function FollowedAuthorsSection({ onNotify }: { onNotify: (message: string) => void }) {
  const following = useAuthorFollowing(onNotify);
  if (!following.canFollow) return null;
  const { followed } = following;
  return (
    <SectionCard id="followed-authors" icon={<PeopleAltOutlined />} title={TEXT.title} description={TEXT.description}>
      {following.isError ? (
        <Typography variant="body2" color="error">
          {TEXT.loadFailed}
        </Typography>
      ) : following.isLoading ? null : followed.length === 0 ? (
        <Typography variant="body2" color="text.secondary" data-testid="followed-authors-empty">
          {TEXT.empty}
        </Typography>
      ) : (
        <>
          {following.max ? (
            <Typography variant="body2" color="text.secondary">
              {TEXT.count(followed.length, following.max)}
            </Typography>
          ) : null}
          <List dense disablePadding data-testid="followed-authors-list">
            {followed.map((author) => {
              const identified = [
                author.orcid ? `ORCID ${author.orcid}` : '',
                author.openalex_id && !author.orcid ? `OpenAlex ${author.openalex_id}` : '',
                author.affiliation ?? '',
              ].filter(Boolean);
              return (
                <ListItem
                  key={author.id}
                  disableGutters
                  data-testid="followed-author"
                  sx={{ flexWrap: 'wrap', gap: 1, alignItems: 'flex-start' }}
                >
                  <ListItemText
                    primary={author.name}
                    secondary={author.is_name_only ? TEXT.nameOnly : TEXT.identified(identified)}
                    sx={{ minWidth: 0, flex: '1 1 200px', overflowWrap: 'anywhere' }}
                  />
                  <Button
                    size="small"
                    variant="outlined"
                    disabled={following.isBusy}
                    onClick={() => following.unfollow(author)}
                    data-testid="followed-author-unfollow"
                  >
                    {TEXT.unfollow}
                  </Button>
                </ListItem>
              );
            })}
          </List>
        </>
      )}
    </SectionCard>
  );
}
