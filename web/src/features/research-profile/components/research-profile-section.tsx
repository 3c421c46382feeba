import type { UserResponse } from '@radar/shared';
import { useEffect, useState } from 'react';
import { useResearchGuide } from '../hooks/use-research-guide';
import { cacheResearchProfile } from '../utils/research-cache';
import { hasResearchProfile } from '../utils/research-fields';
import { ResearchDialog } from './research-dialog';
import { ResearchGuideDialog } from './research-guide-dialog';
import { ResearchSummarySection } from './research-summary-section';

type ResearchProfileSectionProps = {
  user: UserResponse;
  /** Reloads the profile after a save (the session owns it). */
  onSaved: () => Promise<void>;
  onNotify: (message: string) => void;
};

/**
 * The research profile on /my: the research-info section, the AI dialog that generates it and the
 * first-visit guide that offers the dialog while the profile is empty. The dialogs open in portals, so
 * where this sits in the page only places the section.
 */
export function ResearchProfileSection({ user, onSaved, onNotify }: ResearchProfileSectionProps) {
  const isEmpty = !hasResearchProfile(user);
  const guide = useResearchGuide(!isEmpty);
  const [isDialogOpen, setIsDialogOpen] = useState(false);

  useEffect(() => cacheResearchProfile(user), [user]);

  const openDialog = () => {
    guide.close();
    setIsDialogOpen(true);
  };

  return (
    <>
      <ResearchSummarySection
        user={user}
        isEmpty={isEmpty}
        onGenerate={openDialog}
        onSaved={onSaved}
        onNotify={onNotify}
      />
      <ResearchDialog
        open={isDialogOpen}
        onClose={() => setIsDialogOpen(false)}
        accountEmail={user.email}
        initialDescription={user.research_description}
        onSaved={onSaved}
      />
      <ResearchGuideDialog
        open={guide.isOpen && !isDialogOpen}
        onClose={guide.close}
        onCompleteNow={openDialog}
        onRemindLater={guide.remindLater}
        onNeverRemind={guide.neverRemind}
      />
    </>
  );
}
