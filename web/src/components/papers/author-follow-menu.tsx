import PersonAddAltOutlinedIcon from '@mui/icons-material/PersonAddAltOutlined';
import Chip from '@mui/material/Chip';
import { lazy, Suspense, useId, useRef, useState } from 'react';

/** What a card needs to follow its authors; the page supplies it (useAuthorFollowing). */
export type AuthorFollowControls = {
  isFollowed: (name: string) => boolean;
  /** Follows author `index` of the card's paper, or unfollows them when followed. */
  onToggle: (index: number, name: string) => void;
  disabled?: boolean;
};

const TEXT = {
  button: (count: number) => `作者 ${count} 位`,
  buttonTitle: '查看作者，关注或取消关注',
} as const;

/**
 * The menu (MUI's Menu, Popover and Modal: about 110 kB of script) loads at the first opening: /papers
 * then loads and evaluates none of it before its first card.
 */
const AuthorListMenu = lazy(async () => ({ default: (await import('./author-list-menu')).AuthorListMenu }));

/** Authors listed in the menu at most (long collaborations list hundreds): the first ones and the last. */
const MENU_AUTHORS = 30;

/**
 * 作者 N 位: a chip that opens the paper's author list, each with 关注该作者 or, when followed, 已关注 and
 * 取消关注. The menu scrolls; at 375 px it fits the screen width.
 */
export function AuthorFollowMenu(props: { authors: string[]; controls: AuthorFollowControls; testId: string }) {
  const anchor = useRef<HTMLDivElement>(null);
  const [isOpen, setOpen] = useState(false);
  // The menu mounts at its first opening and stays (so it closes with its transition): a list of 20 cards
  // renders no closed menus.
  const [hasOpened, setHasOpened] = useState(false);
  const menuId = useId();
  const shown = props.authors
    .map((name, index) => ({ name, index }))
    .filter((author) => author.name)
    .filter((_, position, all) => position < MENU_AUTHORS - 1 || position === all.length - 1);
  if (shown.length === 0) return null;
  return (
    <>
      <Chip
        ref={anchor}
        size="small"
        variant="outlined"
        icon={<PersonAddAltOutlinedIcon />}
        label={TEXT.button(props.authors.length)}
        title={TEXT.buttonTitle}
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={isOpen ? menuId : undefined}
        data-testid={props.testId}
        onClick={() => {
          setHasOpened(true);
          setOpen(true);
        }}
        disabled={props.controls.disabled}
      />
      {hasOpened ? (
        <Suspense fallback={null}>
          <AuthorListMenu
            id={menuId}
            anchorEl={anchor.current}
            open={isOpen}
            onClose={() => setOpen(false)}
            authors={shown}
            isFollowed={props.controls.isFollowed}
            onChoose={(index, name) => {
              setOpen(false);
              props.controls.onToggle(index, name);
            }}
            testId={props.testId}
          />
        </Suspense>
      ) : null}
    </>
  );
}
