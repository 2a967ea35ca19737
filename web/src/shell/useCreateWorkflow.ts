import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../api';
import { navigate } from '../router';
import { useToast } from '../ui/toast';
import { failure, isUpgradeRequired } from './workflowActions';

/**
 * Creates a workflow in `workspaceId` (in the folder it is given, or at the top) and opens it; the plan
 * limit goes to the payments page with the server's message, other failures are a toast (spec 000 §8).
 * The sidebar's "New workflow" and the empty home page's share it.
 */
export function useCreateWorkflow(workspaceId: string, onOpen: (id: string) => void) {
  const toast = useToast();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (folderId: string | null) => api.createWorkflow(workspaceId, { folderId }),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['workflows', workspaceId] });
      onOpen(created.id);
    },
    onError: (error) => {
      if (isUpgradeRequired(error)) navigate(`/payments?reason=${encodeURIComponent(error.message)}`);
      else toast.error(failure('create', error));
    },
  });
}
