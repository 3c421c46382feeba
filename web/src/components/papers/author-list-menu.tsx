import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';

const TEXT = {
  follow: '关注该作者',
  unfollow: '取消关注',
  followed: '已关注',
} as const;

const PAPER_SX = { maxHeight: 360, maxWidth: 'calc(100vw - 32px)' } as const;
const NAME_SX = { overflowWrap: 'anywhere', whiteSpace: 'normal' } as const;

/** The open author list of AuthorFollowMenu, loaded at the first opening (author-follow-menu.tsx). */
export function AuthorListMenu(props: {
  id: string;
  anchorEl: HTMLElement | null;
  open: boolean;
  onClose: () => void;
  authors: { name: string; index: number }[];
  isFollowed: (name: string) => boolean;
  onChoose: (index: number, name: string) => void;
  testId: string;
}) {
  return (
    <Menu
      id={props.id}
      anchorEl={props.anchorEl}
      open={props.open}
      onClose={props.onClose}
      slotProps={{ paper: { sx: PAPER_SX } }}
    >
      {props.authors.map(({ name, index }) => (
        <MenuItem key={index} data-testid={`${props.testId}-item`} onClick={() => props.onChoose(index, name)}>
          <ListItemText
            primary={name}
            secondary={props.isFollowed(name) ? `${TEXT.followed} · ${TEXT.unfollow}` : TEXT.follow}
            slotProps={{ primary: { sx: NAME_SX } }}
          />
        </MenuItem>
      ))}
    </Menu>
  );
}
