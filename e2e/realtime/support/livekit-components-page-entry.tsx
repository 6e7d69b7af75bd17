// Bundled with esbuild into a test page built only on LiveKit's own React components (@livekit/components-react
// 2.x, unmodified), as a LiveKit user's app would be: it joins a Palaver session's room and renders what the
// components see of the agent. The tests read the page.
import { useRef, useState } from 'react';
import { Track, type LocalParticipant, type Participant } from 'livekit-client';
import { createRoot } from 'react-dom/client';
import {
  LiveKitRoom,
  RoomAudioRenderer,
  useChat,
  useIsSpeaking,
  useLocalParticipant,
  useSpeakingParticipants,
  useTrackTranscription,
  useTranscriptions,
  useVoiceAssistant,
} from '@livekit/components-react';

interface Details {
  url: string;
  token: string;
  audio: boolean;
}

/** `useIsSpeaking` of a participant: whether it speaks now, and every change it rendered. */
function Speaking({ participant, testId }: { participant: Participant; testId: string }) {
  const speaking = useIsSpeaking(participant);
  const changes = useRef<boolean[]>([]);
  if (changes.current.at(-1) !== speaking) changes.current.push(speaking);
  return (
    <p data-testid={testId} data-speaking={String(speaking)} data-changes={changes.current.join(' ')}>
      {speaking ? 'speaking' : 'quiet'}
    </p>
  );
}

/** `useTrackTranscription` of the local microphone: the user's own words, from the legacy `Transcription` packets. */
function MicTranscription({ participant }: { participant: LocalParticipant }) {
  const publication = participant.getTrackPublication(Track.Source.Microphone);
  const { segments } = useTrackTranscription(publication ? { participant, publication, source: Track.Source.Microphone } : undefined);
  return (
    <ol data-testid="mic-transcription">
      {segments.map((segment) => (
        <li key={segment.id}>{`${segment.final ? 'final' : 'interim'}|${segment.text}`}</li>
      ))}
    </ol>
  );
}

function Inside() {
  const { state, agentTranscriptions, agent } = useVoiceAssistant();
  const speakers = useSpeakingParticipants();
  const transcriptions = useTranscriptions();
  const { send } = useChat();
  const { localParticipant } = useLocalParticipant();
  (window as unknown as { sendChat: (text: string) => Promise<unknown> }).sendChat = (text) => send(text);
  const whose = (identity: string) => (identity === localParticipant.identity ? 'user' : identity);
  return (
    <main>
      <p data-testid="state">{state}</p>
      {agent && <Speaking participant={agent} testId="agent-speaking" />}
      <Speaking participant={localParticipant} testId="me-speaking" />
      <p data-testid="speakers">{speakers.map((speaker) => speaker.identity).join(' ')}</p>
      <p data-testid="mic-track">{[...localParticipant.audioTrackPublications.values()][0]?.trackSid ?? ''}</p>
      <ol data-testid="transcriptions">
        {transcriptions.map((stream) => (
          <li key={stream.streamInfo.id}>
            {[
              whose(stream.participantInfo.identity),
              stream.streamInfo.attributes?.['lk.transcription_final'] ?? '',
              stream.streamInfo.attributes?.['lk.transcribed_track_id'] ?? '',
              stream.text,
            ].join('|')}
          </li>
        ))}
      </ol>
      <MicTranscription participant={localParticipant} />
      <ol data-testid="agent-transcriptions">
        {agentTranscriptions.map((segment) => (
          <li key={segment.id}>{`${segment.final ? 'final' : 'interim'}|${segment.text}`}</li>
        ))}
      </ol>
    </main>
  );
}

function App() {
  const [details, setDetails] = useState<Details | null>(null);
  (window as unknown as { setConnectionDetails: typeof setDetails }).setConnectionDetails = setDetails;
  if (!details) return <p>waiting</p>;
  return (
    <LiveKitRoom serverUrl={details.url} token={details.token} connect audio={details.audio}>
      <Inside />
      <RoomAudioRenderer />
    </LiveKitRoom>
  );
}

createRoot(document.body.appendChild(document.createElement('div'))).render(<App />);
