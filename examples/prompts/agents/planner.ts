// A planner agent that hands subtasks to workers (OpenAI chat completions).
import OpenAI from 'openai';

const client = new OpenAI();

const systemPrompt = 'You are the planner. Break the user\'s goal into at most five "subtasks".';

export async function plan(goal: string): Promise<string> {
  const response = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      { role: 'system', content: systemPrompt },
      { role: 'user', content: goal },
    ],
  });
  return response.choices[0].message.content ?? '';
}

export async function review(peerReply: string): Promise<string> {
  const response = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [
      {
        role: 'system',
        content: `You review the work of other agents.
Here is what the worker sent back:
${peerReply}
Check it against the plan.`,
      },
    ],
  });
  return response.choices[0].message.content ?? '';
}
