-- Trajectory points gain the restart count and a solver's convergence
-- measure (RESEDA's rho), so restart events and convergence can be plotted.
-- docs/schema.md explains both columns.

-- +goose Up
ALTER TABLE trajectory_points ADD COLUMN restarts BIGINT NOT NULL DEFAULT 0;
ALTER TABLE trajectory_points ADD COLUMN convergence DOUBLE PRECISION;

-- +goose Down
ALTER TABLE trajectory_points DROP COLUMN convergence;
ALTER TABLE trajectory_points DROP COLUMN restarts;
