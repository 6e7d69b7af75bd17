import { useState } from 'react';
import { createClient, type PalaverClient } from '@palaver/sdk-core';

/** How long the page waits for the recording after ending the session (the agent stores it as it leaves). */
const READY_WITHIN_MS = 8000;

/** The recording, asked again while the platform answers 404 (not stored yet), up to {@link READY_WITHIN_MS}. */
async function fetchRecording(client: PalaverClient, sessionId: string): Promise<Blob> {
  const until = Date.now() + READY_WITHIN_MS;
  for (;;) {
    try {
      return await client.realtime.recording(sessionId);
    } catch (error) {
      if ((error as { status?: number }).status !== 404 || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}

/**
 * The recording of a call started with "Record the call" (both sides, a stereo WAV the platform keeps with the
 * session), fetched with the visitor's usage token and saved as a file. Hanging up only leaves the room; the session
 * is ended here first (the agent would otherwise wait for the visitor to come back), and the platform stores the
 * recording as its agent leaves.
 */
export function RecordingDownload({ platformUrl, token, sessionId }: { platformUrl: string; token: string; sessionId: string }) {
  const [note, setNote] = useState<string>();
  const download = async () => {
    setNote(undefined);
    try {
      const client = createClient({ baseUrl: platformUrl, usageToken: token });
      await client.realtime.end(sessionId);
      const wav = await fetchRecording(client, sessionId);
      const link = document.createElement('a');
      link.href = URL.createObjectURL(wav);
      link.download = `${sessionId}.wav`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      setNote(
        (error as { status?: number }).status === 404 ? 'The recording is not there: the call was not recorded, or it was deleted.' : (error as Error).message,
      );
    }
  };
  return (
    <p className="recording">
      <button data-testid="download-recording" onClick={() => void download()}>
        Download the recording
      </button>
      {note && <small data-testid="recording-note"> {note}</small>}
    </p>
  );
}
