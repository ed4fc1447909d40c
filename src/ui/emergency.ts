import { createContext, useContext } from "react";

/**
 * Emergency mode, when the wallet failed to start and a minimal worker runs the emergency kit: the failure
 * the owner saw, so the kit can show it and put it in the logs. Null when the wallet runs normally.
 */
export const EmergencyContext = createContext<{ readonly failure: string } | null>(null);

export const useEmergency = () => useContext(EmergencyContext);
